package org.copydesk.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;

/**
 * A newsroom's people from one CSV file ({@code copydesk editors import}; docs/install.md, "People
 * from a file"): every line is read and checked against the newsroom before anyone is made, so a
 * file with one wrong line changes nothing and says which lines are wrong and why.
 * <pre>
 * name,display_name,role,capacity,desks,sign_in
 * ann,Ann Lee,editor,5,news sport,password
 * dana,Dana Park,supervisor,3,news,directory
 * </pre>
 * Only {@code name} is required; the rest default to the name, editor, 5, no desk and a password
 * made for the person.
 */
final class PeopleFile {

    /** How a person signs in: a password Copydesk makes (shown once), the directory's, or an account that exists. */
    public enum SignIn { PASSWORD, DIRECTORY, NONE }

    /** One person of the file, at its line. */
    public record Person(int line, String name, String displayName, Role role, int capacity, List<String> desks, SignIn signIn) {
    }

    /** The file's people, and one line for each of its lines that is wrong (then nobody should be made). */
    public record Reading(List<Person> people, List<String> wrong) {
    }

    private static final Set<String> COLUMNS = Set.of("name", "display_name", "role", "capacity", "desks", "sign_in");
    /** A database account's name: what create_account itself takes (is_account_name). */
    private static final String ACCOUNT_NAME = "[A-Za-z0-9_.-]{1,32}";

    private PeopleFile() {
    }

    /**
     * The file's people, checked against the newsroom's desks, with every wrong line; throws (one
     * line) when the file itself cannot be read as people.
     */
    public static Reading read(Path file, Set<String> desks) {
        List<Person> people = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        Set<String> names = new HashSet<>();
        try (Reader in = new java.io.InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
             CSVParser csv = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).setIgnoreSurroundingSpaces(true)
                     .setIgnoreEmptyLines(true).get().parse(in)) {
            Set<String> unknown = csv.getHeaderNames().stream().map(h -> h.strip().toLowerCase(Locale.ROOT))
                    .filter(h -> !COLUMNS.contains(h)).collect(Collectors.toCollection(java.util.TreeSet::new));
            if (!csv.getHeaderNames().contains("name") || !unknown.isEmpty()) {
                throw new IllegalArgumentException(file + ": the first line names the columns: name (required), display_name, role,"
                        + " capacity, desks, sign_in" + (unknown.isEmpty() ? "" : "; not " + String.join(", ", unknown))
                        + ". Nothing was changed.");
            }
            for (CSVRecord r : csv) {
                int line = (int) r.getParser().getCurrentLineNumber();
                try {
                    Person p = person(line, r.toMap(), desks);
                    if (!names.add(p.name())) {
                        throw new IllegalArgumentException(p.name() + " is on an earlier line too");
                    }
                    people.add(p);
                } catch (IllegalArgumentException e) {
                    wrong.add(file.getFileName() + " line " + line + ": " + e.getMessage());
                }
            }
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not UTF-8 text. Nothing was changed.", e);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage() + ". Nothing was changed.", e);
        }
        return new Reading(List.copyOf(people), List.copyOf(wrong));
    }

    private static Person person(int line, Map<String, String> row, Set<String> known) {
        String name = value(row, "name", "");
        if (!name.matches(ACCOUNT_NAME)) {
            throw new IllegalArgumentException("'" + name + "' is not a sign-in name (letters, digits, . _ -, at most 32)");
        }
        Role role;
        String roleText = value(row, "role", "editor");
        try {
            role = Role.valueOf(roleText.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("role '" + roleText + "' is not editor, supervisor or admin", e);
        }
        int capacity;
        String capacityText = value(row, "capacity", "5");
        try {
            capacity = Integer.parseInt(capacityText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("capacity '" + capacityText + "' is not a whole number", e);
        }
        if (capacity < 0 || capacity > Newsroom.MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity " + capacity + " is not between 0 and " + Newsroom.MAX_CAPACITY);
        }
        List<String> desks = Arrays.stream(value(row, "desks", "").split("[\\s,;]+")).filter(d -> !d.isEmpty()).toList();
        List<String> missing = desks.stream().filter(d -> !known.contains(d)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no desk " + String.join(", ", missing) + " (copydesk desks list)");
        }
        String signIn = value(row, "sign_in", "password");
        SignIn how;
        try {
            how = SignIn.valueOf(signIn.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("sign_in '" + signIn + "' is not password, directory or none", e);
        }
        return new Person(line, name, value(row, "display_name", name), role, capacity, desks, how);
    }

    private static String value(Map<String, String> row, String column, String otherwise) {
        String v = row.get(column);
        return v == null || v.isBlank() ? otherwise : v.strip();
    }
}
