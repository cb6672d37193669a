package org.copydesk.cli;

import java.time.Duration;
import org.copydesk.review.Desk;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk desks list|add|set-lease}. */
@Command(name = "desks", mixinStandardHelpOptions = true, description = "Manages desks and their lease lengths.",
        subcommands = {DesksCommand.ListDesks.class, DesksCommand.Add.class, DesksCommand.SetLease.class})
final class DesksCommand {

    private DesksCommand() {
    }

    @Command(name = "list", description = "Lists desks.")
    static final class ListDesks extends DatabaseCommand<ReviewSession> {
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;

        ListDesks() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            if (json) {
                JsonOutput.print(out(), g -> {
                    g.writeStartObject();
                    JsonOutput.objects(g, "desks", session.newsroom().desks(), (j, d) -> {
                        j.writeStringField("desk", d.id());
                        j.writeStringField("name", d.name());
                        j.writeNumberField("leaseSeconds", d.leaseLength().toSeconds());
                        j.writeNumberField("maxHoldSeconds", d.maxLease().toSeconds());
                        j.writeNumberField("maxSendBacks", d.maxSendBacks());
                        j.writeNumberField("firstBackOffSeconds", d.sendBackDelay().toSeconds());
                    });
                    g.writeEndObject();
                });
                return ExitCode.OK;
            }
            Table t = new Table("DESK", "NAME", "LEASE", "MAX HOLD", "MAX SEND-BACKS", "FIRST BACK-OFF");
            for (Desk d : session.newsroom().desks()) {
                t.row(d.id(), d.name(), Durations.format(d.leaseLength()), Durations.format(d.maxLease()), d.maxSendBacks(),
                        Durations.format(d.sendBackDelay()));
            }
            t.print(out());
            return ExitCode.OK;
        }
    }

    @Command(name = "add", description = "Adds a desk.")
    static final class Add extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "ID")
        String id;
        @Parameters(index = "1", paramLabel = "NAME")
        String name;
        @Option(names = "--lease", defaultValue = "30m", converter = Durations.class, description = "lease length (default: ${DEFAULT-VALUE})")
        Duration lease;

        Add() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            Desk d = session.newsroom().addDesk(id, name, lease);
            out().println("Added desk " + d.name() + " (" + d.id() + ").");
            return ExitCode.OK;
        }
    }

    @Command(name = "set-lease", description = "Sets a desk's lease length (30s to 24h).")
    static final class SetLease extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;
        @Parameters(index = "1", paramLabel = "LENGTH", converter = Durations.class, description = "e.g. 30m")
        Duration length;

        SetLease() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            Desk d = session.newsroom().setLeaseLength(desk, length);
            out().println("Leases on " + d.name() + " now last " + Durations.format(d.leaseLength()) + ".");
            return ExitCode.OK;
        }
    }
}
