package org.copydesk.ui.supervisor;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes a {@link TableSnapshot} as CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheet
 * programs read accents right). Written to a temporary file first and moved into place, so a
 * failed export never leaves half a file under the chosen name.
 */
public final class CsvExport {

    private CsvExport() {
    }

    public static void write(TableSnapshot table, Path target) throws IOException {
        Path folder = target.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(folder, ".copydesk-export-", ".csv");
        try {
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                out.write('\uFEFF'); // before the header, which the printer writes as it is created
                CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180.builder()
                        .setHeader(table.headers().toArray(String[]::new)).get());
                for (var row : table.rows()) {
                    csv.printRecord(row);
                }
                csv.flush();
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
