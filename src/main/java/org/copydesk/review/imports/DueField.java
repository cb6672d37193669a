package org.copydesk.review.imports;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;

/**
 * An import row's {@code due} field (docs/import-format.md): an ISO-8601 date-time with an offset or
 * {@code Z} ({@code 2026-11-29T18:00:00Z}, {@code 2026-11-29T19:00:00+01:00}, or with a zone id in
 * brackets), kept in UTC to the millisecond. A time without an offset is refused, unlike
 * {@code available_at}: a deadline read in the wrong zone is missed by hours without anyone seeing
 * it, and a file's local time means a different moment on each desk's computer and either side of a
 * daylight-saving change. A date alone is refused too: "due on the 29th" names no hour.
 */
final class DueField {

    private static final String EXAMPLES = "such as 2026-11-29T18:00:00Z or 2026-11-29T19:00:00+01:00";

    private DueField() {
    }

    /** The due time in UTC, or null when the field is absent or empty. */
    static LocalDateTime read(FieldValue v) throws ArticleRowValidator.Refused {
        if (v == null || v.kind() == FieldValue.Kind.NULL || v.kind() == FieldValue.Kind.TEXT && v.text().isBlank()) {
            return null;
        }
        if (v.kind() != FieldValue.Kind.TEXT) {
            throw new ArticleRowValidator.Refused("due must be an ISO-8601 date-time with an offset in quotes, not "
                    + v.kind().description);
        }
        String s = v.text().strip();
        if (s.length() > 10 && s.charAt(10) == ' ') {
            s = s.substring(0, 10) + 'T' + s.substring(11);
        }
        TemporalAccessor t;
        try {
            t = DateTimeFormatter.ISO_DATE_TIME.parseBest(s, ZonedDateTime::from, OffsetDateTime::from, LocalDateTime::from);
        } catch (DateTimeException e) {
            throw new ArticleRowValidator.Refused("due \"" + ImportText.visible(v.text(), 40)
                    + "\" is not an ISO-8601 date-time with an offset, " + EXAMPLES);
        }
        LocalDateTime utc;
        if (t instanceof ZonedDateTime z) {
            utc = z.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
        } else if (t instanceof OffsetDateTime o) {
            utc = o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        } else {
            throw new ArticleRowValidator.Refused("due \"" + ImportText.visible(v.text(), 40)
                    + "\" has no offset: a local time names a different moment in each time zone; write it " + EXAMPLES);
        }
        if (utc.getYear() < 2000 || utc.getYear() > 9998) {
            throw new ArticleRowValidator.Refused("due " + utc + "Z is outside the years 2000-9998");
        }
        return utc.truncatedTo(ChronoUnit.MILLIS);
    }
}
