package org.copydesk.review.imports;

import java.nio.charset.Charset;

/**
 * A byte as Windows-1252 reads it (Latin-1 where Windows-1252 leaves a byte undefined). Bytes that
 * are not UTF-8 are almost always this 8-bit text (an accented letter saved by an older program), so
 * a row holding them is shown this way in the quarantine: the supervisor sees "é" where the file
 * meant "é", never a replacement character that has lost the letter.
 */
final class WindowsLatin {

    private static final char[] TABLE = new char[256];

    static {
        Charset windows = Charset.forName("windows-1252");
        for (int b = 0; b < 256; b++) {
            String s = new String(new byte[] {(byte) b}, windows);
            TABLE[b] = s.length() == 1 && s.charAt(0) != '\uFFFD' ? s.charAt(0) : (char) b;
        }
    }

    private WindowsLatin() {
    }

    static char of(int b) {
        return TABLE[b & 0xFF];
    }
}
