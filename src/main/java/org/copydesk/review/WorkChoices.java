package org.copydesk.review;

import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.STAGE_TAKER;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The desks and stages a person takes work from (docs/workflow.md, "What an editor takes work
 * from"): what they may work, read as the claim decides it, and their choice among it, kept by the
 * database ({@code set_work_choice}) across sign-ins and read by every claim. An empty choice means
 * everything they may work. The database refuses a choice of work the person may not take, and the
 * claim passes over entries an admin's later change made stale.
 */
public final class WorkChoices {

    /**
     * Work a person may take: a desk without stages ({@code stage} null), or one stage of a desk.
     *
     * @param chosen whether their choice names it (its entry, or its whole desk)
     */
    public record Option(String desk, String deskName, String stage, String stageName, int position, boolean chosen) {

        /** "sport" or "news/legal": how the choice names it. */
        public String entry() {
            return stage == null ? desk : desk + "/" + stage;
        }
    }

    private final DSLContext dsl;
    private final DatabaseOperations operations;
    private final String sessionUser;

    WorkChoices(DSLContext dsl, DatabaseOperations operations, String sessionUser) {
        this.dsl = dsl;
        this.operations = operations;
        this.sessionUser = sessionUser;
    }

    /** Over {@code dsl} as its signed-in account, with Copydesk's default retries (tools and tests). */
    public static WorkChoices over(DSLContext dsl) {
        return new WorkChoices(dsl, DatabaseOperations.withDefaultRetries(dsl), null);
    }

    private String actingFor(String person) {
        return person == null || person.equals(sessionUser) ? null : person;
    }

    /**
     * What the person may work, desk by desk (by name), each desk's stages in chain order, ticked as
     * their choice says (nothing ticked: no choice, everything). A stage is theirs as the claim says:
     * one of a desk they are on whose takers are the desk's editors, or one naming them.
     */
    public List<Option> options(String person) {
        List<String> onDesks = dsl.select(EDITOR_DESK.DESK_ID).from(EDITOR_DESK).where(EDITOR_DESK.EDITOR_ID.eq(person))
                .fetch(EDITOR_DESK.DESK_ID);
        Set<String> namedFor = dsl.select(STAGE_TAKER.DESK_ID, STAGE_TAKER.STAGE_ID).from(STAGE_TAKER)
                .where(STAGE_TAKER.EDITOR_ID.eq(person)).fetchSet(r -> r.value1() + "/" + r.value2());
        Set<String> desks = new TreeSet<>(onDesks);
        namedFor.forEach(e -> desks.add(e.substring(0, e.indexOf('/'))));
        if (desks.isEmpty()) {
            return List.of();
        }
        Set<String> chosen = entries(dsl.select(EDITOR.WORK_CHOICE).from(EDITOR).where(EDITOR.ID.eq(person))
                .fetchOne(EDITOR.WORK_CHOICE));
        Map<String, String> names = dsl.select(DESK.ID, DESK.NAME).from(DESK).where(DESK.ID.in(desks)).fetchMap(DESK.ID, DESK.NAME);
        Map<String, List<Record>> stages = dsl.select(DESK_STAGE.DESK_ID, DESK_STAGE.STAGE_ID, DESK_STAGE.NAME, DESK_STAGE.POSITION,
                        DESK_STAGE.TAKERS).from(DESK_STAGE).where(DESK_STAGE.DESK_ID.in(desks)).orderBy(DESK_STAGE.POSITION)
                .fetchGroups(DESK_STAGE.DESK_ID).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> new ArrayList<Record>(e.getValue())));
        List<Option> options = new ArrayList<>();
        desks.stream().sorted((a, b) -> names.getOrDefault(a, a).compareToIgnoreCase(names.getOrDefault(b, b))).forEach(desk -> {
            String deskName = names.getOrDefault(desk, desk);
            List<Record> chain = stages.getOrDefault(desk, List.of());
            if (chain.isEmpty()) {
                if (onDesks.contains(desk)) {
                    options.add(new Option(desk, deskName, null, null, 0, chosen.contains(desk)));
                }
                return;
            }
            for (Record s : chain) {
                String stage = s.get(DESK_STAGE.STAGE_ID);
                boolean takes = "named".equals(s.get(DESK_STAGE.TAKERS).getLiteral()) ? namedFor.contains(desk + "/" + stage)
                        : onDesks.contains(desk);
                if (takes) {
                    options.add(new Option(desk, deskName, stage, s.get(DESK_STAGE.NAME), s.get(DESK_STAGE.POSITION),
                            chosen.contains(desk) || chosen.contains(desk + "/" + stage)));
                }
            }
        });
        return options;
    }

    /**
     * The person's choice as kept ("news/copy", "sport"; empty: everything they may work): one row
     * by its key, for the window's top line.
     */
    public Set<String> chosen(String person) {
        return entries(dsl.select(EDITOR.WORK_CHOICE).from(EDITOR).where(EDITOR.ID.eq(person)).fetchOne(EDITOR.WORK_CHOICE));
    }

    /** The desks the person may work: those they are on and those with a stage naming them. */
    public List<String> desksOf(String person) {
        return dsl.select(EDITOR_DESK.DESK_ID).from(EDITOR_DESK).where(EDITOR_DESK.EDITOR_ID.eq(person))
                .union(dsl.select(STAGE_TAKER.DESK_ID).from(STAGE_TAKER).where(STAGE_TAKER.EDITOR_ID.eq(person)))
                .fetch(0, String.class).stream().sorted().toList();
    }

    /**
     * Keeps the person's choice ("sport", "news/legal" entries; empty: everything they may work),
     * through the database's {@code set_work_choice}, which refuses work they may not take. Returns
     * the entries as kept.
     */
    public List<String> choose(String person, List<String> entries) {
        String joined = entries.isEmpty() ? null : String.join(",", entries);
        Record kept = operations.fetch(Operation.SET_WORK_CHOICE, actingFor(person), joined).stream().findFirst().orElse(null);
        return kept == null ? List.of() : List.copyOf(entries(kept.get(0, String.class)));
    }

    /**
     * The entries a choice of these options makes: a desk whose every stage is ticked is named whole,
     * so a stage the desk adds later is taken too; nothing ticked, or everything, is no choice.
     */
    public static List<String> entriesFor(List<Option> options, Set<String> ticked) {
        if (ticked.isEmpty() || options.stream().allMatch(o -> ticked.contains(o.entry()))) {
            return List.of();
        }
        List<String> entries = new ArrayList<>();
        options.stream().map(Option::desk).distinct().forEach(desk -> {
            List<Option> ofDesk = options.stream().filter(o -> o.desk().equals(desk)).toList();
            if (ofDesk.stream().allMatch(o -> ticked.contains(o.entry()))) {
                entries.add(desk);
            } else {
                ofDesk.stream().filter(o -> ticked.contains(o.entry())).forEach(o -> entries.add(o.entry()));
            }
        });
        return entries;
    }

    private static Set<String> entries(String choice) {
        return choice == null || choice.isBlank() ? Set.of()
                : new LinkedHashSet<>(Arrays.stream(choice.split(",")).filter(s -> !s.isBlank()).toList());
    }
}
