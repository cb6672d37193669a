package org.copydesk.review.imports;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.copydesk.testing.Fixtures;
import org.jooq.DSLContext;

/** Shared set-up for the import tests: desks, an empty article table, files in a temporary folder. */
final class ImportTestSupport {

    private ImportTestSupport() {
    }

    static void reset(DSLContext dsl) {
        dsl.deleteFrom(IMPORT_QUARANTINE).execute();
        dsl.deleteFrom(LEASE_EVENT).execute();
        dsl.deleteFrom(ARTICLE).execute();
        Fixtures.desk(dsl, "news");
        Fixtures.desk(dsl, "sport");
    }

    static Path write(Path dir, String name, String content) {
        return write(dir, name, content.getBytes(StandardCharsets.UTF_8));
    }

    static Path write(Path dir, String name, byte[] content) {
        try {
            Path file = dir.resolve(name);
            Files.write(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] concat(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            byte[] b = p instanceof byte[] bytes ? bytes : p.toString().getBytes(StandardCharsets.UTF_8);
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    static List<Long> quarantinedLines(DSLContext dsl, String importId) {
        return dsl.select(IMPORT_QUARANTINE.LINE_NUMBER).from(IMPORT_QUARANTINE)
                .where(IMPORT_QUARANTINE.IMPORT_ID.eq(importId)).orderBy(IMPORT_QUARANTINE.LINE_NUMBER)
                .fetch(IMPORT_QUARANTINE.LINE_NUMBER);
    }

    static String reasonAt(DSLContext dsl, String importId, long line) {
        return dsl.select(IMPORT_QUARANTINE.REASON).from(IMPORT_QUARANTINE)
                .where(IMPORT_QUARANTINE.IMPORT_ID.eq(importId)).and(IMPORT_QUARANTINE.LINE_NUMBER.eq(line))
                .fetchOne(IMPORT_QUARANTINE.REASON);
    }

    static String rawAt(DSLContext dsl, String importId, long line) {
        return dsl.select(IMPORT_QUARANTINE.RAW_TEXT).from(IMPORT_QUARANTINE)
                .where(IMPORT_QUARANTINE.IMPORT_ID.eq(importId)).and(IMPORT_QUARANTINE.LINE_NUMBER.eq(line))
                .fetchOne(IMPORT_QUARANTINE.RAW_TEXT);
    }

    static int articles(DSLContext dsl) {
        return dsl.fetchCount(ARTICLE);
    }

    /** Articles whose 'import' history event is missing, and import events without their article: both must be 0. */
    static int orphans(DSLContext dsl) {
        java.util.Set<String> articleIds = new java.util.HashSet<>();
        dsl.select(ARTICLE.ID).from(ARTICLE).fetch(ARTICLE.ID).forEach(id -> articleIds.add(String.valueOf(id)));
        List<String> events = dsl.select(LEASE_EVENT.ROW_KEY).from(LEASE_EVENT).where(LEASE_EVENT.RESOURCE.eq("article"))
                .and(LEASE_EVENT.ACTION.eq("import")).fetch(LEASE_EVENT.ROW_KEY);
        java.util.Set<String> eventIds = new java.util.HashSet<>(events);
        int orphans = events.size() - eventIds.size();
        for (String id : articleIds) {
            orphans += eventIds.contains(id) ? 0 : 1;
        }
        for (String id : eventIds) {
            orphans += articleIds.contains(id) ? 0 : 1;
        }
        return orphans;
    }
}
