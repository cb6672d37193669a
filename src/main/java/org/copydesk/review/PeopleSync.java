package org.copydesk.review;

import static org.copydesk.db.schema.Tables.EDITOR;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.EditorDirectory;
import org.jooq.DSLContext;

/**
 * The newsroom's people follow the directory's groups: who is in a configured group becomes a person
 * with the role and desks the groups give and a directory account (PAM: docs/install.md, "Directory
 * sign-in"); who left every group, or whom the directory disabled, is suspended as a person who leaves
 * is removed (no account, no desks, capacity 0, what they held back to the queue; history kept), and
 * comes back if they return. Only people the sync made are touched, never one an admin added by hand.
 * The same directory gives the same newsroom: a second run changes nothing.
 */
public final class PeopleSync {

    /**
     * One change, as the dry run shows it and the run makes it: a person's ({@code subject} their id) or
     * a stage's named takers ({@code subject} desk/stage, {@code takers} who they will be).
     */
    public record Change(Kind kind, String subject, String line, List<String> takers) {
        Change(Kind kind, String subject, String line) {
            this(kind, subject, line, List.of());
        }
    }

    public enum Kind { ADD, UPDATE, RETURN, SUSPEND, TAKERS, SKIP }

    static final int CAPACITY = 5;
    /** What the database takes as an account's name; a directory id that is anything else is skipped, never used. */
    private static final String ACCOUNT_NAME = "[A-Za-z0-9_.-]{1,32}";

    private final ReviewSession session;
    private final DSLContext dsl;

    public PeopleSync(ReviewSession session) {
        this.session = session;
        this.dsl = session.database().dsl();
    }

    /** What the sync would change, person by person, in name order. */
    public List<Change> plan(DirectorySettings settings, Map<String, DirectoryPeople.Member> members) {
        Map<String, Editor> people = new TreeMap<>();
        session.newsroom().editors().forEach(e -> people.put(e.id(), e));
        Map<String, EditorDirectory> origin = new TreeMap<>();
        dsl.select(EDITOR.ID, EDITOR.DIRECTORY).from(EDITOR).forEach(r -> origin.put(r.value1(), r.value2()));
        List<Change> changes = new ArrayList<>();
        for (DirectoryPeople.Member m : members.values().stream().sorted(Comparator.comparing(DirectoryPeople.Member::uid)).toList()) {
            if (!m.uid().matches(ACCOUNT_NAME)) {
                changes.add(new Change(Kind.SKIP, m.uid(), "skipped '" + m.uid() + "': not an account name (letters, digits, . _ -,"
                        + " at most 32)"));
                continue;
            }
            if (m.disabled()) {
                continue; // handled below as someone who is not a member
            }
            DirectorySettings.Grant wanted = grant(settings, m.groups());
            Editor now = people.get(m.uid());
            if (now == null) {
                changes.add(new Change(Kind.ADD, m.uid(), "add " + m.uid() + " (" + m.displayName() + ", " + name(wanted.role())
                        + ", desks " + desks(wanted.desks()) + ")"));
            } else if (origin.get(m.uid()) == EditorDirectory.none) {
                changes.add(new Change(Kind.SKIP, m.uid(), "skipped " + m.uid() + ": added by hand, not from the directory"));
            } else if (origin.get(m.uid()) == EditorDirectory.left) {
                changes.add(new Change(Kind.RETURN, m.uid(), "return " + m.uid() + " (" + name(wanted.role()) + ", desks "
                        + desks(wanted.desks()) + ")"));
            } else if (now.role() != wanted.role() || !Set.copyOf(now.desks()).equals(Set.copyOf(wanted.desks()))) {
                changes.add(new Change(Kind.UPDATE, m.uid(), "update " + m.uid() + " (" + name(now.role()) + " → " + name(wanted.role())
                        + ", desks " + desks(now.desks()) + " → " + desks(wanted.desks()) + ")"));
            }
        }
        for (Map.Entry<String, EditorDirectory> p : origin.entrySet()) {
            DirectoryPeople.Member m = members.get(p.getKey());
            if (p.getValue() == EditorDirectory.member && (m == null || m.disabled())) {
                changes.add(new Change(Kind.SUSPEND, p.getKey(), "suspend " + p.getKey() + " ("
                        + (m == null ? "in no configured group" : "disabled in the directory") + ")"));
            }
        }
        changes.addAll(takerChanges(settings, members, origin));
        return changes;
    }

    /**
     * The named takers of each stage the groups name: the members of those groups, and anyone an admin
     * named by hand who did not come from the directory (people who left the groups are taken off).
     * Comes after the people's changes, so the people it names exist when it is made.
     */
    private List<Change> takerChanges(DirectorySettings settings, Map<String, DirectoryPeople.Member> members,
                                      Map<String, EditorDirectory> origin) {
        Map<String, Set<String>> wanted = new TreeMap<>();
        settings.groups().values().forEach(g -> g.stages().forEach(s -> wanted.put(s, new TreeSet<>())));
        for (DirectoryPeople.Member m : members.values()) {
            if (!m.disabled() && m.uid().matches(ACCOUNT_NAME) && origin.get(m.uid()) != EditorDirectory.none) {
                grant(settings, m.groups()).stages().forEach(s -> wanted.get(s).add(m.uid()));
            }
        }
        List<Change> changes = new ArrayList<>();
        Map<String, Map<String, Stage>> chains = new TreeMap<>();
        for (Map.Entry<String, Set<String>> w : wanted.entrySet()) {
            String[] deskAndStage = w.getKey().split("/", 2);
            Stage stage = chains.computeIfAbsent(deskAndStage[0], d -> session.stages().chain(d).stream()
                    .collect(Collectors.toMap(Stage::id, x -> x))).get(deskAndStage[1]);
            if (stage == null) {
                changes.add(new Change(Kind.SKIP, w.getKey(), "skipped stage " + w.getKey() + ": desk " + deskAndStage[0]
                        + " has no stage " + deskAndStage[1]));
                continue;
            }
            if (!stage.namedTakers()) {
                changes.add(new Change(Kind.SKIP, w.getKey(), "skipped stage " + w.getKey() + ": the desk's editors take it,"
                        + " not named people (copydesk stages add … --takers PERSON,…)"));
                continue;
            }
            Set<String> takers = new TreeSet<>(w.getValue());
            stage.takers().stream().filter(t -> origin.get(t) == EditorDirectory.none).forEach(takers::add);
            if (!takers.equals(new TreeSet<>(stage.takers()))) {
                changes.add(new Change(Kind.TAKERS, w.getKey(), "set the takers of stage " + w.getKey() + " to " + names(takers)
                        + " (now " + names(stage.takers()) + ")", List.copyOf(takers)));
            }
        }
        return changes;
    }

    private static String names(java.util.Collection<String> people) {
        return people.isEmpty() ? "nobody" : String.join(", ", new TreeSet<>(people));
    }

    /** Makes the planned changes; returns a line for each (a failed one says why; the others still happen). */
    public List<String> apply(DirectorySettings settings, Map<String, DirectoryPeople.Member> members, List<Change> changes) {
        List<String> done = new ArrayList<>();
        for (Change c : changes) {
            try {
                done.add(make(settings, members.get(c.subject()), c));
            } catch (RuntimeException e) {
                done.add("FAILED " + c.line() + ": " + e.getMessage());
            }
        }
        return done;
    }

    private String make(DirectorySettings settings, DirectoryPeople.Member m, Change c) {
        Newsroom newsroom = session.newsroom();
        switch (c.kind()) {
            case ADD -> {
                DirectorySettings.Grant g = grant(settings, m.groups());
                newsroom.addEditor(m.uid(), m.displayName(), g.role(), CAPACITY, g.desks());
                mark(m.uid(), EditorDirectory.member);
                session.accounts().createDirectoryAccount(m.uid());
            }
            case RETURN, UPDATE -> {
                DirectorySettings.Grant g = grant(settings, m.groups());
                newsroom.setRole(m.uid(), g.role());
                newsroom.setDesks(m.uid(), g.desks());
                if (c.kind() == Kind.RETURN) {
                    newsroom.setCapacity(m.uid(), CAPACITY);
                    session.accounts().createDirectoryAccount(m.uid());
                    mark(m.uid(), EditorDirectory.member);
                } else {
                    session.accounts().regrant(m.uid());
                }
            }
            case TAKERS -> {
                String[] deskAndStage = c.subject().split("/", 2);
                session.stages().setTakers(null, deskAndStage[0], deskAndStage[1], c.takers());
            }
            case SUSPEND -> {
                PersonRemoval.Removal r = new PersonRemoval(session).remove(c.subject());
                mark(c.subject(), EditorDirectory.left);
                return c.line() + ": no account, no desks, capacity 0; " + r.articlesReturned() + " article(s) back to the queue";
            }
            case SKIP -> {
                return c.line();
            }
            default -> throw new IllegalStateException(c.kind().name());
        }
        return c.line() + ": done";
    }

    @org.copydesk.AllowedBecause("the admin's setup of the newsroom, as Newsroom.addEditor: who came from the directory")
    private void mark(String uid, EditorDirectory state) {
        dsl.update(EDITOR).set(EDITOR.DIRECTORY, state).where(EDITOR.ID.eq(uid)).execute();
    }

    /** The highest role of the person's groups, and every desk and stage they give. */
    static DirectorySettings.Grant grant(DirectorySettings settings, Set<String> groups) {
        Role role = Role.EDITOR;
        Set<String> desks = new LinkedHashSet<>();
        Set<String> stages = new TreeSet<>();
        for (String group : groups) {
            DirectorySettings.Grant g = settings.groups().get(group);
            if (g.role().ordinal() > role.ordinal()) {
                role = g.role();
            }
            desks.addAll(g.desks());
            stages.addAll(g.stages());
        }
        return new DirectorySettings.Grant(role, List.copyOf(desks), List.copyOf(stages));
    }

    private static String name(Role role) {
        return role.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String desks(List<String> desks) {
        return desks.isEmpty() ? "none" : String.join(", ", desks.stream().sorted().toList());
    }
}
