package org.copydesk.cli;

import java.io.ByteArrayOutputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where a new account password comes from, one way only: asked at the terminal ({@code --password},
 * twice), the first line of standard input ({@code --password-stdin}, for scripts), or
 * {@code COPYDESK_NEW_PASSWORD}; never the command line. Standard input is read only when
 * {@code --password-stdin} says so: picocli's own asking read a line of it whenever there was no
 * terminal, so in a {@code while read} loop {@code --password} with the variable set took the loop's
 * next line as the password (and printed its prompt on standard output).
 */
final class NewPassword {

    static final String ENV = "COPYDESK_NEW_PASSWORD";

    @Option(names = "--password", description = "ask for the password at the terminal (twice)")
    boolean ask;
    @Option(names = "--password-stdin", description = "read the password from the first line of standard input (for scripts)")
    boolean fromStdin;

    /**
     * The password given, or null when none was (the caller generates one where that is allowed).
     * Refuses in one line, before anything is made, when two ways are used, when it should be asked
     * for and there is no terminal, or when nothing was typed.
     */
    char[] read(Map<String, String> environment) {
        String fromEnvironment = environment.get(ENV);
        int ways = (ask ? 1 : 0) + (fromStdin ? 1 : 0) + (fromEnvironment != null ? 1 : 0);
        if (ways > 1) {
            throw new Cli.CommandFailure("Give the new password one way: --password (asked at the terminal), --password-stdin or "
                    + ENV + "; nothing was changed.");
        }
        if (fromEnvironment != null) {
            return fromEnvironment.toCharArray();
        }
        if (fromStdin) {
            return typed(firstLine(Cli.standardInput()));
        }
        if (!ask) {
            return null;
        }
        Console console = System.console();
        if (console == null) {
            throw new Cli.CommandFailure("--password asks at a terminal, and there is none here; a script gives the password with"
                    + " --password-stdin or " + ENV + ". Nothing was changed.");
        }
        return typed(console.readPassword("Password: "));
    }

    /**
     * A password asked for at the terminal is asked for twice (a typo would lock the person out);
     * one from a script is taken as it is.
     */
    char[] confirmed(char[] password) {
        Console console = System.console();
        if (!ask || console == null) {
            return password;
        }
        char[] again = console.readPassword("Type the password again: ");
        boolean same = again != null && Arrays.equals(password, again);
        DatabaseCommand.wipe(again);
        if (!same) {
            DatabaseCommand.wipe(password);
            throw new Cli.CommandFailure("The two passwords differ; nothing was changed.");
        }
        return password;
    }

    private static char[] typed(char[] password) {
        if (password == null || password.length == 0) {
            throw new Cli.CommandFailure("A password was asked for but none was typed; nothing was changed.");
        }
        return password;
    }

    /** The bytes up to the first line end (CR LF or LF), as UTF-8; nothing past it is read. */
    private static char[] firstLine(InputStream in) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
                line.write(b);
            }
        } catch (IOException e) {
            throw new Cli.CommandFailure("Standard input could not be read (" + e.getMessage() + "); nothing was changed.");
        }
        byte[] bytes = line.toByteArray();
        int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes, 0, end));
        Arrays.fill(bytes, (byte) 0);
        char[] password = Arrays.copyOf(chars.array(), chars.limit());
        Arrays.fill(chars.array(), '\0');
        return password;
    }
}
