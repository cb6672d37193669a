package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exit codes are written once ({@link ExitCode}); the documented table says the same. */
class ExitCodeTest {

    @Test
    void theDocumentedTableListsEveryExitCodeWithItsMeaningAndCommands() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("docs/import-format.md"));
        int start = lines.indexOf("<!-- ExitCodeTest checks this table against cli/ExitCode.java -->");
        assertThat(start).as("the marked table in docs/import-format.md").isPositive();
        List<String> rows = new ArrayList<>();
        for (int i = start + 3; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(lines.get(i));
        }
        List<String> expected = new ArrayList<>();
        for (ExitCode c : ExitCode.values()) {
            String commands = c.commands().isEmpty() ? "every command"
                    : String.join(", ", c.commands().stream().map(n -> "`" + (c == ExitCode.NOT_RUNNING ? n + " --status" : n) + "`")
                    .toList());
            expected.add("| " + c.code() + " | " + c.meaning() + " | " + commands + " |");
        }
        assertThat(rows).containsExactlyElementsOf(expected);
    }

    @Test
    void eachCommandsHelpListsTheCodesThatApplyToIt() {
        assertThat(ExitCode.of("import")).containsOnlyKeys("0", "1", "2", "3", "5");
        assertThat(ExitCode.of("waiting")).containsOnlyKeys("0", "1", "2", "4");
        assertThat(ExitCode.of("server")).containsOnlyKeys("0", "1", "2", "3").containsEntry("3", ExitCode.NOT_RUNNING.meaning());
        assertThat(ExitCode.of("relay status")).containsOnlyKeys("0", "1", "2");
    }
}
