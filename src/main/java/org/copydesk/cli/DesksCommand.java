package org.copydesk.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.copydesk.review.Desk;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk desks list|add|set-lease}. */
@Command(name = "desks", mixinStandardHelpOptions = true, description = "Manages desks and their lease lengths.",
        subcommands = {DesksCommand.ListDesks.class, DesksCommand.Add.class, DesksCommand.SetLease.class})
final class DesksCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists desks.")
    static final class ListDesks implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                if (json) {
                    JsonOutput.print(spec.commandLine().getOut(), g -> {
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
                    return 0;
                }
                Table t = new Table("DESK", "NAME", "LEASE", "MAX HOLD", "MAX SEND-BACKS", "FIRST BACK-OFF");
                for (Desk d : session.newsroom().desks()) {
                    t.row(d.id(), d.name(), Durations.format(d.leaseLength()), Durations.format(d.maxLease()), d.maxSendBacks(),
                            Durations.format(d.sendBackDelay()));
                }
                t.print(spec.commandLine().getOut());
            }
            return 0;
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Adds a desk.")
    static final class Add implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "ID")
        String id;
        @Parameters(index = "1", paramLabel = "NAME")
        String name;
        @Option(names = "--lease", defaultValue = "30m", converter = Durations.class, description = "lease length (default: ${DEFAULT-VALUE})")
        Duration lease;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                Desk d = session.newsroom().addDesk(id, name, lease);
                spec.commandLine().getOut().println("Added desk " + d.name() + " (" + d.id() + ").");
            }
            return 0;
        }
    }

    @Command(name = "set-lease", mixinStandardHelpOptions = true, description = "Sets a desk's lease length (30s to 24h).")
    static final class SetLease implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;
        @Parameters(index = "1", paramLabel = "LENGTH", converter = Durations.class, description = "e.g. 30m")
        Duration length;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                Desk d = session.newsroom().setLeaseLength(desk, length);
                spec.commandLine().getOut().println("Leases on " + d.name() + " now last " + Durations.format(d.leaseLength()) + ".");
            }
            return 0;
        }
    }
}
