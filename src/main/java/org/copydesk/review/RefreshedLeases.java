package org.copydesk.review;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The history row a Get articles / Reload writes for the leases it refreshed: one row of the editor
 * (resource {@value #RESOURCE}, the editor's id as its key, action "refresh") whose detail lists
 * each lease as {@code [article id, token, "new end"]}, by article id, at most
 * {@value #PER_ROW} to a row so the list always fits the detail's 2,000 characters. (Rows written
 * before this were one per article, resource "article"; they stay as they were and read as before.)
 */
public final class RefreshedLeases {

    /** The resource of an editor's refresh rows. */
    public static final String RESOURCE = "editor";

    /** Leases listed in one row at most (claim_articles writes one more row per as many more). */
    public static final int PER_ROW = 25;

    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter END = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    /** One lease a reload refreshed: the article, its lease's token (unchanged) and the lease's new end. */
    public record Refreshed(long articleId, long token, LocalDateTime expiresAt) {
    }

    private RefreshedLeases() {
    }

    /** The leases an editor's refresh row lists; a detail that is not such a list is a bug and throws. */
    public static List<Refreshed> parse(String detail) {
        List<Refreshed> leases = new ArrayList<>();
        try (JsonParser p = JSON.createParser(detail)) {
            expect(p.nextToken(), JsonToken.START_ARRAY, detail);
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                expect(t, JsonToken.START_ARRAY, detail);
                expect(p.nextToken(), JsonToken.VALUE_NUMBER_INT, detail);
                long id = p.getLongValue();
                expect(p.nextToken(), JsonToken.VALUE_NUMBER_INT, detail);
                long token = p.getLongValue();
                expect(p.nextToken(), JsonToken.VALUE_STRING, detail);
                LocalDateTime end = LocalDateTime.parse(p.getText(), END);
                expect(p.nextToken(), JsonToken.END_ARRAY, detail);
                leases.add(new Refreshed(id, token, end));
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("An editor's refresh row that is not a list of [article, token, end]: " + detail, e);
        }
        return leases;
    }

    private static void expect(JsonToken actual, JsonToken expected, String detail) {
        if (actual != expected) {
            throw new IllegalStateException("An editor's refresh row that is not a list of [article, token, end]: " + detail);
        }
    }
}
