package org.copydesk.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.copydesk.lease.ClaimStrategyKind;
import org.jooq.DSLContext;

/**
 * The claim benchmark's desk with a review chain ({@code -Dbench.stages=1,3}): the editors' full
 * path (SKIP_LOCKED) on the same desk given one stage, or three, beside the same editors on the desk
 * without stages, in the same minutes. Every stage is entered and taken by the desk's editors, with
 * no four-eyes rule, so an approval at the first stages moves the article on (a stage step: history,
 * decision, outcome event) and the last is the final decision; each counts as a row. A one-stage
 * desk must cost what a desk without stages does (issue: within 5 % in rows/s and statements per
 * row); a three-stage desk's rows are stage steps, two of every three of them moves.
 */
final class StageCells {

    /** The bench desk's stages are named s1, s2, … in chain order. */
    private static final String FIRST = "s1";

    private StageCells() {
    }

    /** The stage counts asked for, each ≥ 1 (none by default: the benchmark as before). */
    static List<Integer> counts() {
        return Arrays.stream(System.getProperty("bench.stages", "").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(Integer::valueOf).filter(n -> n > 0).toList();
    }

    static ClaimBenchmark.Cell cell(int owners, int stages) {
        return new ClaimBenchmark.Cell("EDITORS+" + stages + (stages == 1 ? "STAGE/" : "STAGES/") + ClaimStrategyKind.SKIP_LOCKED
                + "/" + owners, ClaimBenchmark.Kind.EDITORS, ClaimStrategyKind.SKIP_LOCKED, owners, stages);
    }

    /**
     * Gives the bench desk {@code stages} stages (0: none) and puts every article at the first, in
     * its first pass, as {@code set_desk_stage} does for a desk's waiting work; a no-op when the chain
     * is already so and no article moved.
     */
    static void chain(DSLContext dsl, String desk, int stages) {
        int now = dsl.fetchOne("select count(*) from desk_stage where desk_id = ?", desk).get(0, Integer.class);
        if (now != stages) {
            dsl.execute("update article set stage_id = null where desk_id = ? and stage_id is not null", desk);
            dsl.execute("delete from desk_stage where desk_id = ?", desk);
            for (int i = 1; i <= stages; i++) {
                dsl.execute("insert into desk_stage (desk_id, stage_id, position, name) values (?, ?, ?, ?)", desk, "s" + i, i,
                        "Stage " + i);
            }
        }
        String first = stages == 0 ? null : FIRST;
        dsl.execute("update article set stage_id = ?, pass = 1, four_eyes_barred = null where desk_id = ?"
                + " and (not (stage_id <=> ?) or pass <> 1 or four_eyes_barred is not null)", first, desk, first);
        dsl.execute("delete from article_stage_request");
    }

    /** The table for docs/benchmarks.md: each chain against the desk without stages, per owner count. */
    static String render(Map<String, ClaimBenchmark.Result> results, List<Integer> ownerCounts) {
        List<Integer> counts = counts();
        if (counts.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n### A desk with a review chain\n\n"
                + "The editors' full path (SKIP_LOCKED) on the desk given a chain of stages, against the same editors on the desk"
                + " without stages in the same run. A row is a decision at a stage: with one stage every decision is final;"
                + " with three, two of every three move the article to the next stage. Statements are per row, the server's"
                + " counters (`Questions` from the client, `Queries` − `Questions` inside the routines).\n\n"
                + "| owners | stages | rows/s | × no stages | client statements / row | × | in routines / row | × |"
                + " server CPU ms / row | × | claim p99 ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int n : ownerCounts) {
            ClaimBenchmark.Result none = results.get(ClaimBenchmark.Cell.editors(ClaimStrategyKind.SKIP_LOCKED, n).label());
            if (none == null) {
                continue;
            }
            row(md, n, 0, none, none);
            for (int stages : counts) {
                ClaimBenchmark.Result r = results.get(cell(n, stages).label());
                if (r != null) {
                    row(md, n, stages, r, none);
                }
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, int owners, int stages, ClaimBenchmark.Result r, ClaimBenchmark.Result none) {
        double inRoutines = r.perRow("Queries") - r.perRow("Questions");
        double noneInRoutines = none.perRow("Queries") - none.perRow("Questions");
        md.append(String.format(Locale.ROOT, "| %d | %d | %.1f | %.2f× | %.2f | %.2f× | %.1f | %.2f× | %.2f | %.2f× | %.1f |%n",
                owners, stages, r.rowsPerSecond(), r.rowsPerSecond() / none.rowsPerSecond(), r.perRow("Questions"),
                r.perRow("Questions") / none.perRow("Questions"), inRoutines, inRoutines / noneInRoutines,
                r.perRow("cpu_server_us") / 1000, r.perRow("cpu_server_us") / none.perRow("cpu_server_us"),
                r.p99Micros() / 1000.0));
    }
}
