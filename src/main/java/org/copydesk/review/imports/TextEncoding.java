package org.copydesk.review.imports;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Which text encoding a file is in. Read from its first bytes: a byte order mark says UTF-8 or
 * UTF-16; text in the ASCII range with every other byte zero is UTF-16 without one; otherwise
 * UTF-8. Refused in one sentence instead of being read as broken text: UTF-32, a file that is not
 * text at all (a spreadsheet, a PDF, an image: known signatures, or many control bytes), and, when
 * the whole file can be read before the import ({@link #eightBitRefusal}), 8-bit text such as
 * Latin-1 or Windows-1252 (bytes that are not UTF-8, and no UTF-8 character beyond ASCII anywhere).
 */
final class TextEncoding {

    /** What the first bytes say: how to decode, with how many bytes of byte order mark, or why not. */
    record Detected(Charset charset, int bomBytes, String refusal) {

        static Detected refused(String why) {
            return new Detected(null, 0, why);
        }

        boolean refusedFile() {
            return refusal != null;
        }

        boolean utf8WithoutBom() {
            return StandardCharsets.UTF_8.equals(charset) && bomBytes == 0;
        }
    }

    /** Signatures of the files most often dropped by mistake, and what to tell the person. */
    private static final Object[][] SIGNATURES = {
        {new int[] {'%', 'P', 'D', 'F'}, "a PDF document"},
        {new int[] {'P', 'K', 3, 4}, "a ZIP archive (an Excel .xlsx workbook is one: save it as \"CSV UTF-8\" instead)"},
        {new int[] {0xD0, 0xCF, 0x11, 0xE0}, "an old Office document (.xls or .doc: save it as \"CSV UTF-8\" instead)"},
        {new int[] {0x89, 'P', 'N', 'G'}, "a PNG image"},
        {new int[] {'G', 'I', 'F', '8'}, "a GIF image"},
        {new int[] {0xFF, 0xD8, 0xFF}, "a JPEG image"},
        {new int[] {0x1F, 0x8B}, "a gzip-compressed file (unpack it first)"},
        {new int[] {'7', 'z', 0xBC, 0xAF}, "a 7-Zip archive"},
        {new int[] {'R', 'a', 'r', '!'}, "a RAR archive"},
        {new int[] {0x7F, 'E', 'L', 'F'}, "a program"},
    };

    private static final String SAVE_AS_UTF8 = "save it as UTF-8 (in a spreadsheet: Save As, \"CSV UTF-8\") and import it again";

    private TextEncoding() {
    }

    /** Decides from the first {@code n} bytes of a file. */
    static Detected ofHead(byte[] head, int n) {
        if (startsWith(head, n, 0x00, 0x00, 0xFE, 0xFF) || startsWith(head, n, 0xFF, 0xFE, 0x00, 0x00)) {
            return Detected.refused("the file is UTF-32 encoded; Copydesk reads UTF-8 and UTF-16: " + SAVE_AS_UTF8);
        }
        if (startsWith(head, n, 0xEF, 0xBB, 0xBF)) {
            return new Detected(StandardCharsets.UTF_8, 3, null);
        }
        if (startsWith(head, n, 0xFF, 0xFE)) {
            return new Detected(StandardCharsets.UTF_16LE, 2, null);
        }
        if (startsWith(head, n, 0xFE, 0xFF)) {
            return new Detected(StandardCharsets.UTF_16BE, 2, null);
        }
        Charset utf16 = utf16WithoutBom(head, n);
        if (utf16 != null) {
            return new Detected(utf16, 0, null);
        }
        for (Object[] signature : SIGNATURES) {
            if (startsWith(head, n, (int[]) signature[0])) {
                return Detected.refused(notText("it is " + signature[1]));
            }
        }
        int controls = 0;
        for (int i = 0; i < n; i++) {
            int b = head[i] & 0xFF;
            if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1B) {
                controls++;
            }
        }
        // text holds a stray control character now and then, a binary file one byte in ten or so
        if (controls >= 2 && controls * 50 > n) {
            return Detected.refused(notText(String.format(Locale.ROOT, "%d of its first %,d bytes are control codes that text does"
                    + " not hold", controls, n)));
        }
        return new Detected(StandardCharsets.UTF_8, 0, null);
    }

    private static String notText(String why) {
        return "the file is not a text file (" + why + "); Copydesk imports CSV and JSON text files";
    }

    /**
     * Reads a whole UTF-8 file without a byte order mark: when it holds bytes that are not UTF-8
     * and not a single UTF-8 character beyond ASCII, it is 8-bit text (Latin-1, Windows-1252 or the
     * like) and is refused, naming the first such byte; null when it is UTF-8 (a file that mixes
     * both is read as UTF-8, its broken rows kept aside one by one).
     */
    static String eightBitRefusal(InputStream in) throws IOException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        byte[] bytes = new byte[64 * 1024];
        ByteBuffer input = ByteBuffer.allocate(bytes.length + 8);
        CharBuffer output = CharBuffer.allocate(bytes.length);
        long line = 1;
        long firstBadLine = 0;
        int firstBad = -1;
        boolean beyondAscii = false;
        boolean end = false;
        while (!end) {
            int read = in.read(bytes, 0, Math.min(bytes.length, input.remaining()));
            end = read < 0;
            if (!end) {
                input.put(bytes, 0, read);
            }
            input.flip();
            while (true) {
                CoderResult result = decoder.decode(input, output, end);
                output.flip();
                while (output.hasRemaining()) {
                    char c = output.get();
                    line += c == '\n' ? 1 : 0;
                    beyondAscii |= c > 0x7F;
                }
                output.clear();
                if (result.isUnderflow()) {
                    break;
                }
                if (result.isError()) {
                    if (firstBad < 0) {
                        firstBad = input.get(input.position()) & 0xFF;
                        firstBadLine = line;
                    }
                    input.position(input.position() + result.length());
                }
                if (beyondAscii && firstBad >= 0) {
                    return null; // both: UTF-8 with some broken bytes
                }
            }
            input.compact();
        }
        if (firstBad < 0 || beyondAscii) {
            return null;
        }
        return String.format(Locale.ROOT, "the file is not UTF-8: it looks like Latin-1 or Windows-1252 (line %d holds the byte"
                + " 0x%02X, which is \"%s\" there); %s", firstBadLine, firstBad, WindowsLatin.of(firstBad), SAVE_AS_UTF8);
    }

    /** UTF-16 without a byte order mark: ASCII-range text with the high byte of every character zero. */
    private static Charset utf16WithoutBom(byte[] head, int n) {
        int pairs = Math.min(n, 4096) / 2;
        if (pairs < 2) {
            return null;
        }
        int evenZeros = 0;
        int oddZeros = 0;
        for (int i = 0; i < pairs * 2; i += 2) {
            evenZeros += head[i] == 0 ? 1 : 0;
            oddZeros += head[i + 1] == 0 ? 1 : 0;
        }
        if (oddZeros * 10 >= pairs * 7 && evenZeros * 20 < pairs) {
            return StandardCharsets.UTF_16LE;
        }
        if (evenZeros * 10 >= pairs * 7 && oddZeros * 20 < pairs) {
            return StandardCharsets.UTF_16BE;
        }
        return null;
    }

    private static boolean startsWith(byte[] head, int n, int... prefix) {
        if (n < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((head[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
