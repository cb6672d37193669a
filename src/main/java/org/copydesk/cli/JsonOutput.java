package org.copydesk.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * What {@code --json} prints: one JSON value on one line, with the field names in camelCase and
 * times as ISO-8601 in UTC ending in Z (the database's times are UTC). One helper for every command,
 * so all shapes read alike; the shapes are documented in docs/import-format.md ("The command line
 * for automation").
 */
final class JsonOutput {

    /** Writes the value's content. */
    interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    /** Writes one item's fields (inside the object {@link #objects} opens for it). */
    interface Fields<T> {
        void write(JsonGenerator json, T item) throws IOException;
    }

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);

    private JsonOutput() {
    }

    /** Prints one JSON value and a line end. */
    static void print(PrintWriter out, Body body) {
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            body.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
        out.flush();
    }

    /** A field holding an array with one object per item. */
    static <T> void objects(JsonGenerator json, String name, Iterable<T> items, Fields<T> fields) throws IOException {
        json.writeArrayFieldStart(name);
        for (T item : items) {
            json.writeStartObject();
            fields.write(json, item);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /** A UTC time as "2026-03-01T09:30:00Z", or null. */
    static String time(LocalDateTime utc) {
        return utc == null ? null : UTC.format(utc);
    }

    /** A time field, null when there is no time. */
    static void time(JsonGenerator json, String name, LocalDateTime utc) throws IOException {
        json.writeStringField(name, time(utc));
    }
}
