package org.copydesk.db;

import java.security.SecureRandom;

/** Random passwords people can type: letters and digits without look-alikes (no l, 1, o, 0, I, O). */
public final class RandomPasswords {

    static final String ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomPasswords() {
    }

    public static char[] of(int length) {
        char[] p = new char[length];
        for (int i = 0; i < length; i++) {
            p[i] = ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length()));
        }
        return p;
    }
}
