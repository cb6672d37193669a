package org.copydesk.review;

import static org.copydesk.db.schema.Tables.EDITOR;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    /** One change, as the dry run shows it and the run makes it. */
    public record Change(Kind kind, String uid, String line) {
    }

    public enum Kind { ADD, UPDATE, RETURN, SUSPEND, SKIP }

    static final int CAPACITY = 5;

    private final ReviewSession session;
    private final DSLContext dsl;

    public PeopleSync(ReviewSession session, DSLContext dsl) {
        this.session = session;
        this.dsl = dsl;
    }

    /** What the sync would change, person by person, in name order. */
    public List<Change> plan(DirectorySettings settings, Map<String, DirectoryPeople.Member> members) {
        Map<String, Editor> people = new TreeMap<>();
        session.newsroom().editors().forEach(e -> people.put(e.id(), e));
        Map<String, EditorDirectory> origin = new TreeMap<>();
        dsl.select(EDITOR.ID, EDITOR.DIRECTORY).from(EDITOR).forEach(r -> origin.put(r.value1(), r.value2()));
        List<Change> changes = new ArrayList<>();
        for (DirectoryPeople.Member m : members.values().stream().sorted(Comparator.comparing(DirectoryPeople.Member::uid)).toList()) {
            if (!m.uid().matches("[A-Za-z0-9_.-]{1,32}")) {
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
        return changes;
    }

    /** Makes the planned changes; returns a line for each (a failed one says why; the others still happen). */
    public List<String> apply(DirectorySettings settings, Map<String, DirectoryPeople.Member> members, List<Change> changes) {
        List<String> done = new ArrayList<>();
        for (Change c : changes) {
            try {
                done.add(make(settings, members.get(c.uid()), c));
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
            case SUSPEND -> {
                PersonRemoval.Removal r = new PersonRemoval(session).remove(c.uid());
                mark(c.uid(), EditorDirectory.left);
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

    /** The highest role of the person's groups, and every desk they give. */
    static DirectorySettings.Grant grant(DirectorySettings settings, Set<String> groups) {
        Role role = Role.EDITOR;
        Set<String> desks = new LinkedHashSet<>();
        for (String group : groups) {
            DirectorySettings.Grant g = settings.groups().get(group);
            if (g.role().ordinal() > role.ordinal()) {
                role = g.role();
            }
            desks.addAll(g.desks());
        }
        return new DirectorySettings.Grant(role, List.copyOf(desks));
    }

    private static String name(Role role) {
        return role.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String desks(List<String> desks) {
        return desks.isEmpty() ? "none" : String.join(", ", desks.stream().sorted().toList());
    }
}
