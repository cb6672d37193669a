package org.copydesk.ui.supervisor;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes a {@link TableSnapshot} as CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheet
 * programs read accents right). Written to a temporary file first and moved into place, so a
 * failed export never leaves half a file under the chosen name.
 *
 * <p>Cells hold text editors and sending systems control (titles, notes, reasons). A spreadsheet
 * runs a cell that starts with {@code =}, {@code +}, {@code -} or {@code @} (or a tab or carriage
 * return before one) as a formula, which can fetch URLs or run commands on the reader's computer.
 * Such cells are written with a leading {@code '} (OWASP's advice on CSV injection), which
 * spreadsheets show as plain text. A cell that is only a number ({@code -3}, {@code +2.5}) is
 * kept as it is: it is read as that number, never as a formula.
 */
public final class CsvExport {

    private static final Pattern PLAIN_NUMBER = Pattern.compile("[-+]?[0-9]+([.,][0-9]+)?");

    private CsvExport() {
    }

    public static void write(TableSnapshot table, Path target) throws IOException {
        Path folder = target.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(folder, ".copydesk-export-", ".csv");
        try {
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                out.write('\uFEFF'); // before the header, which the printer writes as it is created
                CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180.builder()
                        .setHeader(safe(table.headers()).toArray(String[]::new)).get());
                for (var row : table.rows()) {
                    csv.printRecord(safe(row));
                }
                csv.flush();
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static List<String> safe(List<String> cells) {
        return cells.stream().map(CsvExport::safeCell).toList();
    }

    /** The cell as written: with a leading {@code '} when a spreadsheet would read it as a formula. */
    static String safeCell(String cell) {
        if (cell == null || cell.isEmpty() || PLAIN_NUMBER.matcher(cell).matches()) {
            return cell;
        }
        char first = cell.charAt(0);
        boolean formula = first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r';
        return formula ? "'" + cell : cell;
    }
}
