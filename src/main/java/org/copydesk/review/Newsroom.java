package org.copydesk.review;

import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.copydesk.db.schema.tables.records.DeskRecord;
import org.copydesk.db.schema.tables.records.EditorRecord;
import org.copydesk.AllowedBecause;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Desks and the people who work on them. A supervisor changes capacities and desks through the
 * database's operations; adding desks and people, lease lengths and roles are the admin's setup,
 * written by the account that owns the schema (nobody else has the rights).
 */
public final class Newsroom {

    private final DSLContext dsl;
    private final DatabaseOperations operations;

    /** Over {@code dsl}, with Copydesk's default retries (tools and tests that open a database themselves). */
    /** The most articles one person may hold at once (the database's check says the same). */
    public static final int MAX_CAPACITY = 100;

    public Newsroom(DSLContext dsl) {
        this(dsl, DatabaseOperations.withDefaultRetries(dsl));
    }

    Newsroom(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.operations = operations;
    }

    public List<Desk> desks() {
        return dsl.selectFrom(DESK).orderBy(DESK.NAME).fetch(Newsroom::toDesk);
    }

    public Optional<Desk> desk(String id) {
        return dsl.selectFrom(DESK).where(DESK.ID.eq(id)).fetchOptional(Newsroom::toDesk);
    }

    @AllowedBecause("the admin's setup of the newsroom: only the schema's owner may add desks, and no operation does")
    public Desk addDesk(String id, String name, Duration leaseLength) {
        requireName(id, Phrase.of("review.newsroom.aDeskId"), 32);
        dsl.insertInto(DESK, DESK.ID, DESK.NAME, DESK.LEASE_SECONDS, DESK.MAX_LEASE_SECONDS)
                .values(id, name, (int) leaseLength.toSeconds(), (int) Math.max(leaseLength.toSeconds(), Duration.ofHours(4).toSeconds()))
                .execute();
        return desk(id).orElseThrow();
    }

    /** Sets a desk's lease length (30 s to 24 h; the maximum hold grows with it if needed). */
    @AllowedBecause("the admin's setup of the newsroom: only the schema's owner may change desks, and no operation does")
    public Desk setLeaseLength(String deskId, Duration leaseLength) {
        long seconds = leaseLength.toSeconds();
        if (seconds < 30 || seconds > 86_400) {
            throw new IllegalArgumentException(Phrase.of("review.newsroom.leaseLength").text());
        }
        int changed = dsl.update(DESK)
                .set(DESK.LEASE_SECONDS, (int) seconds)
                .set(DESK.MAX_LEASE_SECONDS, DSL.greatest(DESK.MAX_LEASE_SECONDS, DSL.inline((int) seconds)))
                .where(DESK.ID.eq(deskId)).execute();
        if (changed == 0) {
            throw new IllegalArgumentException(Phrase.of("review.newsroom.noDesk", deskId).text());
        }
        return desk(deskId).orElseThrow();
    }

    public List<Editor> editors() {
        Map<String, List<String>> desks = deskMembership();
        return dsl.selectFrom(EDITOR).orderBy(EDITOR.DISPLAY_NAME)
                .fetch(r -> toEditor(r, desks.getOrDefault(r.getId(), List.of())));
    }

    public Optional<Editor> editor(String id) {
        return dsl.selectFrom(EDITOR).where(EDITOR.ID.eq(id)).fetchOptional(r -> toEditor(r,
                dsl.select(EDITOR_DESK.DESK_ID).from(EDITOR_DESK).where(EDITOR_DESK.EDITOR_ID.eq(id))
                        .orderBy(EDITOR_DESK.DESK_ID).fetch(EDITOR_DESK.DESK_ID)));
    }

    public Editor requireEditor(String id) {
        return editor(id).orElseThrow(() -> noEditor(id));
    }

    /** Adds a person; desks must exist. */
    @AllowedBecause("the admin's setup of the newsroom: only the schema's owner may add people, and no operation does")
    public Editor addEditor(String id, String displayName, Role role, int capacity, List<String> desks) {
        requireName(id, Phrase.of("review.newsroom.anEditorId"), 64);
        checkCapacity(capacity);
        dsl.transaction(cfg -> {
            DSLContext tx = cfg.dsl();
            if (tx.fetchExists(EDITOR, EDITOR.ID.eq(id))) {
                throw new IllegalArgumentException(Phrase.of("review.newsroom.editorExists", id).text());
            }
            tx.insertInto(EDITOR, EDITOR.ID, EDITOR.DISPLAY_NAME, EDITOR.ROLE, EDITOR.CAPACITY)
                    .values(id, displayName == null || displayName.isBlank() ? id : displayName, role.toDb(), capacity)
                    .execute();
            writeDesks(tx, id, desks);
        });
        return requireEditor(id);
    }

    /** A supervisor's change, through the database's {@code set_editor_capacity}. */
    public Editor setCapacity(String id, int capacity) {
        checkCapacity(capacity);
        requireEditor(id);
        operations.execute(Operation.SET_EDITOR_CAPACITY, id, capacity);
        return requireEditor(id);
    }

    /** A supervisor's change, through the database's {@code set_editor_desks}; desks must exist. */
    public Editor setDesks(String id, List<String> desks) {
        requireEditor(id);
        requireDesks(dsl, desks);
        operations.execute(Operation.SET_EDITOR_DESKS, id, String.join(",", desks));
        return requireEditor(id);
    }

    @AllowedBecause("the admin's setup of the newsroom: only the schema's owner may change roles, and no operation does")
    public Editor setRole(String id, Role role) {
        if (dsl.update(EDITOR).set(EDITOR.ROLE, role.toDb()).where(EDITOR.ID.eq(id)).execute() == 0) {
            throw noEditor(id);
        }
        return requireEditor(id);
    }

    private static IllegalArgumentException noEditor(String id) {
        return new IllegalArgumentException(Phrase.of("review.newsroom.noEditor", id).text());
    }

    private static void requireDesks(DSLContext dsl, List<String> desks) {
        List<String> unknown = new ArrayList<>(desks);
        unknown.removeAll(dsl.select(DESK.ID).from(DESK).where(DESK.ID.in(desks)).fetch(DESK.ID));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(Phrase.of("review.newsroom.unknownDesks", String.join(", ", unknown)).text());
        }
    }

    @AllowedBecause("the admin's setup of the newsroom: only the schema's owner may add people, and no operation does")
    private void writeDesks(DSLContext tx, String editorId, List<String> desks) {
        requireDesks(tx, desks);
        tx.deleteFrom(EDITOR_DESK).where(EDITOR_DESK.EDITOR_ID.eq(editorId)).execute();
        for (String desk : desks.stream().distinct().toList()) {
            tx.insertInto(EDITOR_DESK, EDITOR_DESK.EDITOR_ID, EDITOR_DESK.DESK_ID).values(editorId, desk).execute();
        }
    }

    private Map<String, List<String>> deskMembership() {
        return dsl.select(EDITOR_DESK.EDITOR_ID, EDITOR_DESK.DESK_ID).from(EDITOR_DESK).orderBy(EDITOR_DESK.DESK_ID)
                .fetch().stream().collect(Collectors.groupingBy(r -> r.value1(),
                        Collectors.mapping(r -> r.value2(), Collectors.toList())));
    }

    private static void checkCapacity(int capacity) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(Phrase.of("review.newsroom.capacity").text());
        }
    }

    private static void requireName(String id, Phrase what, int max) {
        if (id == null || !id.matches("[A-Za-z0-9_.-]{1," + max + "}")) {
            throw new IllegalArgumentException(Phrase.of("review.newsroom.name", what, max).text());
        }
    }

    static Desk toDesk(DeskRecord r) {
        return new Desk(r.getId(), r.getName(), Duration.ofSeconds(r.getLeaseSeconds()), Duration.ofSeconds(r.getMaxLeaseSeconds()),
                r.getMaxSendBacks(), Duration.ofSeconds(r.getSendBackDelaySeconds()));
    }

    private static Editor toEditor(EditorRecord r, List<String> desks) {
        return new Editor(r.getId(), r.getDisplayName(), Role.of(r.getRole()), r.getCapacity(), desks, r.getLastSeenAt());
    }
}
