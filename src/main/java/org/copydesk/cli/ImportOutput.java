package org.copydesk.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.imports.DropFolder;
import org.copydesk.review.imports.ImportFailedException;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.review.imports.ImportReportText;

/**
 * What {@code copydesk import} prints for each file: the report in plain words, or with
 * {@code --json} one JSON object per file on one line (the shape in docs/import-format.md). A file
 * that could not be imported is also one line on stderr.
 */
final class ImportOutput {

    /** Which exit code outweighs which when several files end differently. */
    private static final List<ExitCode> WORST_FIRST = List.of(ExitCode.FAILED, ExitCode.ROWS_KEPT_ASIDE, ExitCode.ALREADY_DECIDED,
            ExitCode.OK);

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private ExitCode worst = ExitCode.OK;

    ImportOutput(PrintWriter out, PrintWriter err, boolean json) {
        this.out = out;
        this.err = err;
        this.json = json;
    }

    /** The exit code of everything reported so far: the worst file's. */
    ExitCode exitCode() {
        return worst;
    }

    private void count(ExitCode code) {
        if (WORST_FIRST.indexOf(code) < WORST_FIRST.indexOf(worst)) {
            worst = code;
        }
    }

    /** A file's rows went in (some perhaps kept aside). */
    void imported(Path file, ImportReport r) {
        count(r.quarantined() > 0 ? ExitCode.ROWS_KEPT_ASIDE : r.alreadyDecided() > 0 ? ExitCode.ALREADY_DECIDED : ExitCode.OK);
        if (json) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeStringField("file", file.toString());
                g.writeBooleanField("failed", false);
                g.writeNullField("reason");
                report(g, r);
                g.writeEndObject();
            });
        } else {
            out.print(ImportReportText.of(r));
            out.flush();
        }
    }

    /** A file could not be imported (refused, unreadable, the database away). */
    void failed(Path file, ImportFailedException e) {
        count(ExitCode.FAILED);
        String reason = Cli.message(e);
        err.println("copydesk: " + file + ": " + reason);
        err.flush();
        if (json) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeStringField("file", file.toString());
                g.writeBooleanField("failed", true);
                g.writeStringField("reason", reason);
                if (e.report() != null) {
                    report(g, e.report());
                }
                g.writeEndObject();
            });
        }
    }

    /** The drop folder finished a file. */
    void finished(DropFolder.Finished f) {
        if (json) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeStringField("file", f.name());
                g.writeBooleanField("failed", f.failed());
                g.writeStringField("reason", f.problem() != null ? f.problem() : f.failed() && f.outcome() != null
                        ? "no row could be imported" : null);
                g.writeStringField("movedTo", f.movedTo().toString());
                g.writeStringField("report", f.report().toString());
                g.writeBooleanField("resumed", f.resumed());
                if (f.outcome() != null) {
                    report(g, f.outcome());
                }
                g.writeEndObject();
            });
            return;
        }
        ImportReport r = f.outcome();
        out.println((f.failed() ? "FAILED " : "Imported ") + f.name() + (f.resumed() ? " (resumed)" : "") + " -> " + f.movedTo()
                + (r == null ? (f.problem() == null ? "" : ": " + f.problem())
                        : String.format(Locale.ROOT, ": %,d new, %,d already present, %,d revised, %,d already decided, %,d kept aside",
                                r.imported(), r.alreadyPresent(), r.revised(), r.alreadyDecided(), r.quarantined()))
                + (f.problem() != null && f.problem().endsWith(".") ? "" : "."));
        out.flush();
    }

    /** The drop folder waits for the database. */
    void waiting(String name, String why) {
        if (json) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeStringField("file", name);
                g.writeStringField("waiting", Cli.plain(why));
                g.writeEndObject();
            });
        } else {
            out.println("Waiting to import " + name + ": " + Cli.plain(why));
            out.flush();
        }
    }

    private static void report(JsonGenerator g, ImportReport r) throws IOException {
        g.writeStringField("importId", r.importId());
        g.writeStringField("format", r.format() == null ? null : r.format().name().toLowerCase(Locale.ROOT));
        g.writeNumberField("rowsRead", r.rowsRead());
        g.writeNumberField("imported", r.imported());
        g.writeNumberField("alreadyPresent", r.alreadyPresent());
        g.writeNumberField("revised", r.revised());
        g.writeNumberField("alreadyDecided", r.alreadyDecided());
        g.writeNumberField("keptAside", r.quarantined());
        g.writeNumberField("keptAsideBefore", r.keptAsideBefore());
        JsonOutput.objects(g, "problems", r.problems(), (j, p) -> {
            j.writeNumberField("line", p.line());
            j.writeStringField("reason", p.reason());
        });
        g.writeNumberField("moreProblems", r.moreProblems());
        JsonOutput.objects(g, "revisions", r.revisionRows(), (j, v) -> {
            j.writeNumberField("line", v.line());
            j.writeStringField("externalId", v.externalId());
            j.writeNumberField("articleId", v.articleId());
            j.writeNumberField("revision", v.revision());
            j.writeStringField("outcome", v.kind().code());
        });
        g.writeArrayFieldStart("warnings");
        for (String w : r.warnings()) {
            g.writeString(w);
        }
        g.writeEndArray();
        g.writeNumberField("bytesRead", r.bytesRead());
        g.writeBooleanField("cancelled", r.cancelled());
        g.writeNumberField("seconds", r.duration().toMillis() / 1000.0);
    }
}
