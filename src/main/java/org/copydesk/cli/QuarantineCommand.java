package org.copydesk.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.review.ArticleQuarantine;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.imports.CorrectionTemplate;
import org.copydesk.review.imports.ImportQuarantine;
import org.copydesk.review.imports.QuarantinedRow;
import org.copydesk.review.imports.RequeueResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code copydesk quarantine list|show|requeue|dismiss}: what the dashboard's Quarantine tab does,
 * for supervisors at a terminal and for scripts. Two kinds of entries: rows an import kept aside
 * ("entries", by number), and articles taken out of the queue (marked unreviewable or sent back too
 * often, by article id). Every change goes through the database's own operations, which record who.
 */
@Command(name = "quarantine", mixinStandardHelpOptions = true,
        description = {"Rows imports kept aside, and articles taken out of the queue: list them, show a row to correct,"
                + " requeue or dismiss. For supervisors."},
        subcommands = {QuarantineCommand.ListEntries.class, QuarantineCommand.Show.class, QuarantineCommand.Requeue.class,
                QuarantineCommand.Dismiss.class})
final class QuarantineCommand {

    private QuarantineCommand() {
    }

    @Command(name = "list",
            description = "Lists the open entries (rows imports kept aside) and the quarantined articles.")
    static final class ListEntries extends DatabaseCommand<ReviewSession> {
        @Option(names = "--import", paramLabel = "IMPORT_ID", description = "only the rows of this import (its report names it)")
        String importId;
        @Option(names = "--limit", defaultValue = "200", description = "at most this many rows (default: ${DEFAULT-VALUE})")
        int limit;
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;

        ListEntries() {
            super(DatabaseAccess.RUNNING_ONLY);
        }

        @Override
        void beforeOpening() {
            if (limit < 1) {
                throw usage("--limit must be 1 or more.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            PrintWriter out = out();
            ImportQuarantine rows = session.importer().quarantine();
            List<QuarantinedRow> open = rows.listOpen(importId, limit);
            int total = rows.countOpen(importId);
            List<ArticleQuarantine.Entry> articles = importId == null ? session.quarantine().list() : List.of();
            if (json) {
                printJson(out, open, total, articles);
                return ExitCode.OK;
            }
            out.println(total == 0 ? "No row kept aside by an import is waiting." : total + " row(s) kept aside by imports"
                    + " wait" + (total > open.size() ? " (the first " + open.size() + " shown)" : "") + ":");
            if (!open.isEmpty()) {
                Table t = new Table("ENTRY", "IMPORT", "FILE", "LINE", "KEPT ASIDE (UTC)", "WHY");
                for (QuarantinedRow r : open) {
                    t.row(r.id(), r.importId(), Table.clip(Path.of(r.sourceName()).getFileName().toString(), 32), r.lineNumber(),
                            r.createdAt().withNano(0).toString().replace('T', ' '), Table.clip(r.reason(), 70));
                }
                t.print(out);
            }
            if (importId == null) {
                out.println();
                out.println(articles.isEmpty() ? "No article is in quarantine." : articles.size() + " article(s) in quarantine:");
                if (!articles.isEmpty()) {
                    Table t = new Table("ARTICLE", "EXTERNAL ID", "DESK", "TITLE", "SENT BACK", "BY", "SINCE (UTC)", "WHY");
                    for (ArticleQuarantine.Entry a : articles) {
                        t.row(a.id(), a.externalId(), a.desk(), Table.clip(a.title(), 40), a.attempts(),
                                a.decidedBy() == null ? "-" : a.decidedBy(), a.since().withNano(0).toString().replace('T', ' '),
                                a.reason() == null ? "-" : Table.clip(a.reason().replaceAll("\\s+", " "), 50));
                    }
                    t.print(out);
                }
            }
            return ExitCode.OK;
        }

        private static void printJson(PrintWriter out, List<QuarantinedRow> open, int total, List<ArticleQuarantine.Entry> articles) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeNumberField("openRows", total);
                JsonOutput.objects(g, "rows", open, (o, r) -> {
                    o.writeNumberField("entry", r.id());
                    o.writeStringField("importId", r.importId());
                    o.writeStringField("file", r.sourceName());
                    o.writeNumberField("line", r.lineNumber());
                    o.writeStringField("reason", r.reason());
                    o.writeStringField("rawText", r.rawText());
                    JsonOutput.time(o, "keptAsideAt", r.createdAt());
                });
                JsonOutput.objects(g, "articles", articles, (o, a) -> {
                    o.writeNumberField("articleId", a.id());
                    o.writeStringField("externalId", a.externalId());
                    o.writeStringField("desk", a.desk());
                    o.writeStringField("title", a.title());
                    o.writeNumberField("sentBack", a.attempts());
                    o.writeStringField("decidedBy", a.decidedBy());
                    o.writeStringField("reason", a.reason());
                    JsonOutput.time(o, "since", a.since());
                });
                g.writeEndObject();
            });
        }
    }

    @Command(name = "show",
            description = {"Prints a row an import kept aside as a JSON object with its fields, ready to correct:",
                    "copydesk quarantine show 17 > row.json; (fix the value) copydesk quarantine requeue 17 --corrected row.json"})
    static final class Show extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "ENTRY", description = "the entry's number (quarantine list shows it)")
        long entry;
        @Option(names = "--as-kept",
                description = "the row's text exactly as the import kept it (for a CSV row: the header line, then the row)")
        boolean asKept;

        Show() {
            super(DatabaseAccess.RUNNING_ONLY);
        }

        @Override
        ExitCode run(ReviewSession session) {
            QuarantinedRow row = session.importer().quarantine().open(entry)
                    .orElseThrow(() -> new Cli.CommandFailure("There is no open entry #" + entry + " (dealt with already,"
                            + " or never kept aside); copydesk quarantine list shows the open ones."));
            out().println(asKept ? row.rawText() : CorrectionTemplate.jsonFor(row.rawText()));
            return ExitCode.OK;
        }
    }

    @Command(name = "requeue",
            description = {"Makes an article of a row an import kept aside, checked by the import's rules: as it was kept (after"
                    + " the cause was fixed, e.g. a desk added), or as corrected (--corrected FILE, - for stdin: a JSON object,"
                    + " or a CSV header line and the row). With --article, puts a quarantined article back in the queue."})
    static final class Requeue extends DatabaseCommand<ReviewSession> {
        @Parameters(arity = "0..*", paramLabel = "ENTRY", description = "entry numbers (quarantine list shows them)")
        List<Long> entries = new ArrayList<>();
        @Option(names = "--corrected", paramLabel = "FILE", description = "the corrected row (one ENTRY only); - reads stdin")
        String corrected;
        @Option(names = "--article", paramLabel = "ARTICLE", description = "a quarantined article's id, instead of entries")
        Long article;
        @Option(names = "--title", description = "with --article: a corrected title")
        String title;
        @Option(names = "--body-file", paramLabel = "FILE", description = "with --article: a corrected body, read from FILE")
        Path bodyFile;
        @Option(names = "--note", defaultValue = "", description = "with --article: why it goes back (kept in its history)")
        String note;
        @Option(names = "--json", description = "print one JSON object with what became of each (docs/import-format.md)")
        boolean json;

        Requeue() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            if ((article == null) == entries.isEmpty()) {
                throw usage("Name the entries to requeue, or one quarantined article with --article (not both).");
            }
            if (corrected != null && entries.size() != 1) {
                throw usage("--corrected goes with exactly one ENTRY.");
            }
            if (article == null && (title != null || bodyFile != null)) {
                throw usage("--title and --body-file go with --article; correct an entry with --corrected.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            if (article != null) {
                String body = bodyFile == null ? null : read(bodyFile.toString());
                session.quarantine().requeue(article, session.sessionUser(), title, body, note);
                return Outcomes.print(spec, json, List.of(new Outcomes.Outcome(null, article, "requeued", article,
                        "Article " + article + " is back in the queue, available now.")));
            }
            ImportQuarantine rows = session.importer().quarantine();
            List<Outcomes.Outcome> done = new ArrayList<>();
            for (long entry : entries) {
                done.add(requeue(rows, entry, session.sessionUser()));
            }
            return Outcomes.print(spec, json, done);
        }

        private Outcomes.Outcome requeue(ImportQuarantine rows, long entry, String actor) {
            String text = corrected != null ? read(corrected) : rows.open(entry).map(QuarantinedRow::rawText).orElse(null);
            RequeueResult r = text == null ? new RequeueResult(RequeueResult.Outcome.NOT_OPEN, null, null)
                    : rows.requeue(entry, text, actor);
            return switch (r.outcome()) {
                case IMPORTED -> new Outcomes.Outcome(entry, null, "imported", r.articleId(),
                        "Entry #" + entry + " is now article " + r.articleId() + ", waiting in the queue.");
                case ALREADY_PRESENT -> new Outcomes.Outcome(entry, null, "already_present", null, "Entry #" + entry
                        + ": an article with its external id is there already; the entry is closed.");
                case STILL_INVALID -> Outcomes.refused(entry, "still_refused", "Entry #" + entry + " is still refused: "
                        + r.reason() + ". Correct it (copydesk quarantine show " + entry + ") and requeue it with --corrected.");
                case NOT_OPEN -> Outcomes.refused(entry, "not_open", "There is no open entry #" + entry
                        + " (dealt with already, or never kept aside).");
            };
        }

        private static String read(String file) {
            try {
                return "-".equals(file) ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(Path.of(file), StandardCharsets.UTF_8);
            } catch (java.nio.file.NoSuchFileException e) {
                throw new Cli.CommandFailure("No such file: " + file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
    }

    @Command(name = "dismiss",
            description = "Closes rows an import kept aside without making articles of them (recorded with your name).")
    static final class Dismiss extends DatabaseCommand<ReviewSession> {
        @Parameters(arity = "0..*", paramLabel = "ENTRY", description = "entry numbers (quarantine list shows them)")
        List<Long> entries = new ArrayList<>();
        @Option(names = "--import", paramLabel = "IMPORT_ID", description = "every open row of this import")
        String importId;
        @Option(names = "--json", description = "print one JSON object with what became of each (docs/import-format.md)")
        boolean json;

        Dismiss() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            if ((importId == null) == entries.isEmpty()) {
                throw usage("Name the entries to dismiss, or --import IMPORT_ID for all open rows of an import (not both).");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            ImportQuarantine rows = session.importer().quarantine();
            List<Long> ids = importId == null ? entries
                    : rows.listOpen(importId, Integer.MAX_VALUE).stream().map(QuarantinedRow::id).toList();
            List<Outcomes.Outcome> done = new ArrayList<>();
            for (long entry : ids) {
                done.add(rows.dismiss(entry, null) ? new Outcomes.Outcome(entry, null, "dismissed", null,
                        "Entry #" + entry + " is dismissed.")
                        : Outcomes.refused(entry, "not_open", "There is no open entry #" + entry + " (dealt with already,"
                                + " or never kept aside)."));
            }
            if (ids.isEmpty()) {
                out().println("Import " + importId + " has no open row.");
            }
            return Outcomes.print(spec, json, done);
        }
    }

    /** What became of each entry or article a command was given, in words or as JSON. */
    static final class Outcomes {

        /** @param refused the command could not do this one (the exit code is then 1) */
        record Outcome(Long entry, Long article, String outcome, Long articleId, String words, boolean refused) {
            Outcome(Long entry, Long article, String outcome, Long articleId, String words) {
                this(entry, article, outcome, articleId, words, false);
            }
        }

        private Outcomes() {
        }

        static Outcome refused(long entry, String outcome, String words) {
            return new Outcome(entry, null, outcome, null, words, true);
        }

        /** Prints each; refused ones go to stderr too. The exit code: {@link ExitCode#FAILED} when any was refused. */
        static ExitCode print(picocli.CommandLine.Model.CommandSpec spec, boolean json, List<Outcome> outcomes) {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            boolean anyRefused = outcomes.stream().anyMatch(Outcome::refused);
            if (json) {
                JsonOutput.print(out, g -> {
                    g.writeStartObject();
                    JsonOutput.objects(g, "results", outcomes, (r, o) -> {
                        if (o.entry() != null) {
                            r.writeNumberField("entry", o.entry());
                        }
                        if (o.article() != null) {
                            r.writeNumberField("article", o.article());
                        }
                        r.writeStringField("outcome", o.outcome());
                        if (o.articleId() == null) {
                            r.writeNullField("articleId");
                        } else {
                            r.writeNumberField("articleId", o.articleId());
                        }
                        r.writeStringField("message", o.words());
                    });
                    g.writeEndObject();
                });
            }
            for (Outcome o : outcomes) {
                if (o.refused()) {
                    err.println("copydesk: " + o.words());
                } else if (!json) {
                    out.println(o.words());
                }
            }
            out.flush();
            err.flush();
            return anyRefused ? ExitCode.FAILED : ExitCode.OK;
        }
    }
}
