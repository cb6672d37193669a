package org.copydesk.review.imports;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The rules for one article row (see {@code docs/import-format.md}). Sizes are those of the
 * {@code article} columns: VARCHAR lengths count characters (code points), MEDIUMTEXT counts UTF-8 bytes.
 */
final class ArticleRowValidator {

    static final Set<String> FIELDS = Set.of("external_id", "desk", "title", "body", "byline", "priority", "available_at",
            "stage", "due");
    /** The fields no article can do without, in the order the documentation lists them. */
    static final java.util.List<String> REQUIRED = java.util.List.of("external_id", "desk", "title", "body");
    static final int EXTERNAL_ID_MAX = 128;
    static final int TITLE_MAX = 300;
    static final int BYLINE_MAX = 200;
    /** MEDIUMTEXT's limit in bytes. */
    static final long BODY_MAX_BYTES = 16_777_215;
    static final int DEFAULT_PRIORITY = 3;

    private final Map<String, String> desksByLowerCaseId;
    private final long bodyMaxBytes;

    /**
     * @param desksByLowerCaseId the desks that exist, by lower-case id (desk ids are matched ignoring case)
     * @param bodyMaxBytes       the body limit: MEDIUMTEXT's, or less when the server's packet limit is smaller
     */
    ArticleRowValidator(Map<String, String> desksByLowerCaseId, long bodyMaxBytes) {
        this.desksByLowerCaseId = desksByLowerCaseId;
        this.bodyMaxBytes = bodyMaxBytes;
    }

    long bodyMaxBytes() {
        return bodyMaxBytes;
    }

    /** Thrown inside validation to give the reason a row is refused. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * Checks a parsed row. Returns the article, or null after handing the reason to {@code refusal}.
     * Field names not in {@link #FIELDS} go to {@code unknownField}.
     */
    ValidatedArticle validate(long line, Map<String, FieldValue> fields, String rawText, Consumer<String> refusal,
                              Consumer<String> unknownField) {
        for (String name : fields.keySet()) {
            if (!FIELDS.contains(name)) {
                unknownField.accept(name);
            }
        }
        try {
            String externalId = requiredId(fields, "external_id");
            if (externalId.codePointCount(0, externalId.length()) > EXTERNAL_ID_MAX) {
                throw new Refused("external_id is longer than " + EXTERNAL_ID_MAX + " characters");
            }
            noControlCharacters("external_id", externalId);
            String deskText = requiredId(fields, "desk");
            String desk = desksByLowerCaseId.get(deskText.toLowerCase(Locale.ROOT));
            if (desk == null) {
                throw new Refused("desk \"" + ImportText.visible(deskText, 40) + "\" does not exist (known desks: "
                        + knownDesks() + ")");
            }
            String title = requiredText(fields, "title");
            if (!hasVisibleCharacter(title)) {
                throw new Refused(title.isEmpty() ? "title is empty" : "title has no visible characters");
            }
            if (title.codePointCount(0, title.length()) > TITLE_MAX) {
                throw new Refused("title is " + title.codePointCount(0, title.length()) + " characters long; at most "
                        + TITLE_MAX + " are allowed");
            }
            noControlCharacters("title", title);
            String body = requiredText(fields, "body");
            if (!hasVisibleCharacter(body)) {
                throw new Refused(body.isEmpty() ? "body is empty" : "body has no visible characters");
            }
            long bodyBytes = utf8Length(body);
            if (bodyBytes > bodyMaxBytes) {
                throw new Refused("body is " + bodyBytes + " bytes (UTF-8); at most " + bodyMaxBytes + " are allowed");
            }
            bodyCharacters(body);
            String byline = optionalText(fields, "byline");
            if (byline != null) {
                if (byline.isBlank()) {
                    byline = null;
                } else if (byline.codePointCount(0, byline.length()) > BYLINE_MAX) {
                    throw new Refused("byline is longer than " + BYLINE_MAX + " characters");
                } else {
                    noControlCharacters("byline", byline);
                }
            }
            int priority = priority(fields.get("priority"));
            LocalDateTime availableAt = availableAt(fields.get("available_at"));
            long size = bodyBytes + 2L * (externalId.length() + title.length() + (byline == null ? 0 : byline.length())) + 64;
            // the stage a new article enters at, on a desk with stages: checked by the database (a row
            // naming a stage its desk does not have is kept aside with the database's words)
            String stage = optionalText(fields, "stage");
            if (stage != null && (stage.isBlank() || stage.strip().length() > 32)) {
                throw new Refused("stage must be a stage id of the desk (1 to 32 characters)");
            }
            LocalDateTime due = DueField.read(fields.get("due"));
            return new ValidatedArticle(line, externalId, desk, title, byline, body, priority, availableAt, size, rawText,
                    stage == null ? null : stage.strip(), due);
        } catch (Refused r) {
            refusal.accept(r.getMessage());
            return null;
        }
    }

    private String knownDesks() {
        if (desksByLowerCaseId.isEmpty()) {
            return "none; create desks first";
        }
        String list = String.join(", ", desksByLowerCaseId.values().stream().sorted().limit(10).toList());
        return desksByLowerCaseId.size() > 10 ? list + ", …" : list;
    }

    /** An id-like required field: text (or a whole number, as many systems number their stories), trimmed. */
    private static String requiredId(Map<String, FieldValue> fields, String name) throws Refused {
        FieldValue v = fields.get(name);
        if (v == null || v.kind() == FieldValue.Kind.NULL) {
            throw new Refused(name + " is missing");
        }
        if (v.kind() != FieldValue.Kind.TEXT && v.kind() != FieldValue.Kind.INTEGER) {
            throw new Refused(name + " must be text, not " + v.kind().description);
        }
        // trimmed: surrounding spaces are never part of an id (and the exact collation would ignore trailing ones)
        String s = v.text().strip();
        if (s.isEmpty()) {
            throw new Refused(name + " is empty");
        }
        noBrokenSurrogates(name, s);
        return s;
    }

    private static String requiredText(Map<String, FieldValue> fields, String name) throws Refused {
        String s = optionalText(fields, name);
        if (s == null) {
            throw new Refused(name + " is missing");
        }
        return s;
    }

    private static String optionalText(Map<String, FieldValue> fields, String name) throws Refused {
        FieldValue v = fields.get(name);
        if (v == null || v.kind() == FieldValue.Kind.NULL) {
            return null;
        }
        if (v.kind() != FieldValue.Kind.TEXT) {
            throw new Refused(name + " must be text, not " + v.kind().description);
        }
        noBrokenSurrogates(name, v.text());
        return v.text();
    }

    private static int priority(FieldValue v) throws Refused {
        if (v == null || v.kind() == FieldValue.Kind.NULL || v.kind() == FieldValue.Kind.TEXT && v.text().isBlank()) {
            return DEFAULT_PRIORITY;
        }
        if (v.kind() != FieldValue.Kind.TEXT && v.kind() != FieldValue.Kind.INTEGER) {
            throw new Refused("priority must be a whole number from 1 to 5, not " + v.kind().description);
        }
        String s = v.text().strip();
        if (s.length() > 3 || !s.chars().allMatch(c -> c >= '0' && c <= '9') || s.isEmpty()) {
            throw new Refused("priority must be a whole number from 1 (most urgent) to 5, not \""
                    + ImportText.visible(s, 20) + "\"");
        }
        int p = Integer.parseInt(s);
        if (p < 1 || p > 5) {
            throw new Refused("priority must be from 1 (most urgent) to 5, not " + p);
        }
        return p;
    }

    /**
     * ISO-8601. With an offset or zone the time is converted to UTC; without one it is taken as UTC
     * already (a date alone means midnight UTC). Kept to the microsecond, as DATETIME(6) stores it.
     */
    static LocalDateTime parseAvailableAt(String text) throws DateTimeException {
        String s = text.strip();
        if (s.length() > 10 && s.charAt(10) == ' ') {
            s = s.substring(0, 10) + 'T' + s.substring(11);
        }
        LocalDateTime utc;
        if (s.length() == 10) {
            utc = LocalDate.parse(s, DateTimeFormatter.ISO_LOCAL_DATE).atStartOfDay();
        } else {
            TemporalAccessor t = DateTimeFormatter.ISO_DATE_TIME.parseBest(s, ZonedDateTime::from, OffsetDateTime::from,
                    LocalDateTime::from);
            if (t instanceof ZonedDateTime z) {
                utc = z.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
            } else if (t instanceof OffsetDateTime o) {
                utc = o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            } else {
                utc = (LocalDateTime) t;
            }
        }
        return utc.truncatedTo(ChronoUnit.MICROS);
    }

    private static LocalDateTime availableAt(FieldValue v) throws Refused {
        if (v == null || v.kind() == FieldValue.Kind.NULL || v.kind() == FieldValue.Kind.TEXT && v.text().isBlank()) {
            return null;
        }
        if (v.kind() != FieldValue.Kind.TEXT) {
            throw new Refused("available_at must be an ISO-8601 date-time in quotes, not " + v.kind().description);
        }
        LocalDateTime utc;
        try {
            utc = parseAvailableAt(v.text());
        } catch (DateTimeException e) {
            throw new Refused("available_at \"" + ImportText.visible(v.text(), 40)
                    + "\" is not an ISO-8601 date-time such as 2025-03-01T09:30:00Z or 2025-03-01T10:30:00+01:00");
        }
        // DATETIME's range; later years would be refused by the server, earlier ones are surely mistakes
        if (utc.getYear() < 1970 || utc.getYear() > 9999) {
            throw new Refused("available_at " + utc + " is outside 1970-9999");
        }
        return utc;
    }

    /** Titles, bylines and ids are one line of text: no control characters at all (tabs and line breaks included). */
    private static void noControlCharacters(String name, String s) throws Refused {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw new Refused(name + " contains the control character U+" + String.format("%04X", (int) c)
                        + " at position " + (i + 1));
            }
        }
    }

    /** The body may hold tabs and line breaks, but no other C0 control characters (NUL included): they mean garbled text. */
    private static void bodyCharacters(String s) throws Refused {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F) {
                throw new Refused("body contains the control character U+" + String.format("%04X", (int) c)
                        + " at position " + (i + 1));
            }
        }
    }

    /** A lone UTF-16 surrogate (e.g. a JSON "\ud800" escape) cannot be stored as UTF-8 and would turn into "?". */
    private static void noBrokenSurrogates(String name, String s) throws Refused {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new Refused(name + " contains an unpaired surrogate (a broken \\u escape) at position " + (i + 1));
            }
            if (Character.isLowSurrogate(c)) {
                throw new Refused(name + " contains an unpaired surrogate (a broken \\u escape) at position " + (i + 1));
            }
        }
    }

    /**
     * Blank text and text of nothing but format characters (zero-width spaces, direction marks, a
     * stray byte order mark) is empty to a reader, and to the database's collation, which ignores them.
     */
    private static boolean hasVisibleCharacter(String s) {
        return s.codePoints().anyMatch(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                && Character.getType(c) != Character.FORMAT && Character.getType(c) != Character.CONTROL);
    }

    static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
