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
import org.jooq.DSLContext;

/** Desks and the people who work on them. */
public final class Newsroom {

    private final DSLContext dsl;

    public Newsroom(DSLContext dsl) {
        this.dsl = dsl;
    }

    public List<Desk> desks() {
        return dsl.selectFrom(DESK).orderBy(DESK.NAME).fetch(Newsroom::toDesk);
    }

    public Optional<Desk> desk(String id) {
        return dsl.selectFrom(DESK).where(DESK.ID.eq(id)).fetchOptional(Newsroom::toDesk);
    }

    public Desk addDesk(String id, String name, Duration leaseLength) {
        requireName(id, "desk id", 32);
        dsl.insertInto(DESK, DESK.ID, DESK.NAME, DESK.LEASE_SECONDS, DESK.MAX_LEASE_SECONDS)
                .values(id, name, (int) leaseLength.toSeconds(), (int) Math.max(leaseLength.toSeconds(), Duration.ofHours(4).toSeconds()))
                .execute();
        return desk(id).orElseThrow();
    }

    /** Sets a desk's lease length (30 s to 24 h; the maximum hold grows with it if needed). */
    public Desk setLeaseLength(String deskId, Duration leaseLength) {
        long seconds = leaseLength.toSeconds();
        if (seconds < 30 || seconds > 86_400) {
            throw new IllegalArgumentException("A lease length is between 30 seconds and 24 hours.");
        }
        int changed = dsl.update(DESK)
                .set(DESK.LEASE_SECONDS, (int) seconds)
                .set(DESK.MAX_LEASE_SECONDS, org.jooq.impl.DSL.greatest(DESK.MAX_LEASE_SECONDS, org.jooq.impl.DSL.inline((int) seconds)))
                .where(DESK.ID.eq(deskId)).execute();
        if (changed == 0) {
            throw new IllegalArgumentException("There is no desk '" + deskId + "'.");
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
        return editor(id).orElseThrow(() -> new IllegalArgumentException("There is no editor '" + id + "'."));
    }

    /** Adds a person; desks must exist. */
    public Editor addEditor(String id, String displayName, Role role, int capacity, List<String> desks) {
        requireName(id, "editor id", 64);
        checkCapacity(capacity);
        dsl.transaction(cfg -> {
            DSLContext tx = cfg.dsl();
            if (tx.fetchExists(EDITOR, EDITOR.ID.eq(id))) {
                throw new IllegalArgumentException("An editor '" + id + "' exists already.");
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
        callOperation("call set_editor_capacity(?, ?)", id, capacity);
        return requireEditor(id);
    }

    /** A supervisor's change, through the database's {@code set_editor_desks}; desks must exist. */
    public Editor setDesks(String id, List<String> desks) {
        requireEditor(id);
        List<String> unknown = new ArrayList<>(desks);
        unknown.removeAll(dsl.select(DESK.ID).from(DESK).where(DESK.ID.in(desks)).fetch(DESK.ID));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown desk(s): " + String.join(", ", unknown) + ".");
        }
        callOperation("call set_editor_desks(?, ?)", id, String.join(",", desks));
        return requireEditor(id);
    }

    private void callOperation(String sql, Object... values) {
        try {
            dsl.execute(sql, values);
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    public Editor setRole(String id, Role role) {
        if (dsl.update(EDITOR).set(EDITOR.ROLE, role.toDb()).where(EDITOR.ID.eq(id)).execute() == 0) {
            throw new IllegalArgumentException("There is no editor '" + id + "'.");
        }
        return requireEditor(id);
    }

    private void writeDesks(DSLContext tx, String editorId, List<String> desks) {
        List<String> unknown = new ArrayList<>(desks);
        unknown.removeAll(tx.select(DESK.ID).from(DESK).where(DESK.ID.in(desks)).fetch(DESK.ID));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown desk(s): " + String.join(", ", unknown) + ".");
        }
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
        if (capacity < 0 || capacity > 100) {
            throw new IllegalArgumentException("Capacity is between 0 and 100 articles.");
        }
    }

    private static void requireName(String id, String what, int max) {
        if (id == null || !id.matches("[A-Za-z0-9_.-]{1," + max + "}")) {
            throw new IllegalArgumentException("A " + what + " is 1 to " + max + " letters, digits, '.', '_' or '-'.");
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
