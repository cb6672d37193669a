package org.copydesk.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every exit code a command can end with, written once: what scripts and service managers can rely
 * on. Each command's {@code --help} lists its own (set from here when the command line is built),
 * and the README's table is this list ({@code ExitCodeTest} checks that they agree).
 */
enum ExitCode {

    OK(0, "done", List.of()),
    FAILED(1, "it could not be done: the one line on stderr says why (a file that cannot be read or is refused, the"
            + " database away or refusing, a lost lease)", List.of()),
    USAGE(2, "the command line is wrong (an unknown, missing or conflicting option or argument); nothing was done",
            List.of()),
    ROWS_KEPT_ASIDE(3, "the files were read, but some rows were kept aside (listed by line; they wait in the import"
            + " quarantine)", List.of("import")),
    NOT_RUNNING(3, "the embedded server is not running", List.of("server")),
    SOME_OVERDUE(4, "some article has waited for its writer longer than --overdue", List.of("waiting")),
    ALREADY_DECIDED(5, "no row was kept aside, but some rows brought a new text for an article already approved, rejected"
            + " or quarantined and changed nothing (import with --reopen to review them again)", List.of("import"));

    private final int code;
    private final String meaning;
    /** The commands (by name under copydesk) that can end with it; empty: every command. */
    private final List<String> commands;

    ExitCode(int code, String meaning, List<String> commands) {
        this.code = code;
        this.meaning = meaning;
        this.commands = commands;
    }

    int code() {
        return code;
    }

    String meaning() {
        return meaning;
    }

    List<String> commands() {
        return commands;
    }

    /** The codes {@code command} (e.g. "import", "relay status") can end with, for its --help. */
    static Map<String, String> of(String command) {
        String top = command.split(" ")[0];
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode c : values()) {
            if (c.commands.isEmpty() || c.commands.contains(top)) {
                list.put(Integer.toString(c.code), c.meaning);
            }
        }
        return list;
    }
}
