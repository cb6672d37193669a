package org.copydesk.review.imports;

/**
 * The external ids already taken by earlier rows of the same file, with the line that took them,
 * kept as 64-bit fingerprints (16 bytes per id in an open-addressing table) so a file of millions of
 * rows does not hold millions of strings. Two different ids sharing a fingerprint would make the
 * second a false "duplicate" (about one chance in 10^7 for ten million rows); it stays in the
 * quarantine and can be requeued.
 */
final class ExternalIdFingerprints {

    private long[] keys = new long[1 << 12];
    private long[] lines = new long[1 << 12];
    private int size;

    /** The line that first used this id, or 0 after recording {@code line} for it. */
    long putIfAbsent(String externalId, long line) {
        long key = fingerprint(externalId);
        int mask = keys.length - 1;
        int i = (int) (key ^ (key >>> 32)) & mask;
        while (keys[i] != 0) {
            if (keys[i] == key) {
                return lines[i];
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        lines[i] = line;
        if (++size * 2 > keys.length) {
            grow();
        }
        return 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldLines = lines;
        keys = new long[oldKeys.length * 2];
        lines = new long[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                int i = (int) (oldKeys[j] ^ (oldKeys[j] >>> 32)) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                lines[i] = oldLines[j];
            }
        }
    }

    /** FNV-1a over the UTF-16 units, then a murmur finaliser; never 0 (0 marks an empty slot). */
    static long fingerprint(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= s.length();
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }
}
