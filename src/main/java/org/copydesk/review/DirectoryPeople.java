package org.copydesk.review;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.naming.Context;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;

/**
 * The members of the configured groups, read from the directory (LDAP, through the JDK's JNDI).
 * Nothing the directory holds is ever used as filter syntax: group names from the settings and user
 * ids from {@code memberUid} travel as the filter's arguments (escaped by JNDI), and members named by
 * DN ({@code member}, {@code uniqueMember}) are read by their name, with no filter at all.
 */
public final class DirectoryPeople {

    /** One person the groups name: their directory id, name, the groups, and whether the directory disabled them. */
    public record Member(String uid, String displayName, Set<String> groups, boolean disabled) {
    }

    private static final String[] PERSON = {"uid", "sAMAccountName", "cn", "displayName", "shadowExpire", "userAccountControl"};
    /** Active Directory's userAccountControl bit for a disabled account. */
    private static final int ACCOUNT_DISABLED = 0x2;

    private final DirectorySettings settings;

    public DirectoryPeople(DirectorySettings settings) {
        this.settings = settings;
    }

    /** Everyone in at least one configured group, by uid (a uid the directory gives twice is read once). */
    public Map<String, Member> members() {
        DirContext ctx = open();
        try {
            Map<String, Member> found = new LinkedHashMap<>();
            for (String group : settings.groups().keySet()) {
                for (Attributes person : groupMembers(ctx, group)) {
                    Member m = member(person, group);
                    if (m != null) {
                        found.merge(m.uid(), m, DirectoryPeople::joined);
                    }
                }
            }
            return found;
        } catch (NamingException e) {
            throw new IllegalStateException("The directory at " + settings.url() + " answered: " + e.getExplanation()
                    + "; nothing was changed.");
        } finally {
            try {
                ctx.close();
            } catch (NamingException ignored) {
                // closing is a courtesy to the server
            }
        }
    }

    private DirContext open() {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, settings.url());
        env.put("com.sun.jndi.ldap.connect.timeout", "5000");
        env.put("com.sun.jndi.ldap.read.timeout", "15000");
        // member DNs are read with getAttributes: referrals are not followed elsewhere
        env.put(Context.REFERRAL, "ignore");
        if (!settings.bindDn().isEmpty()) {
            env.put(Context.SECURITY_AUTHENTICATION, "simple");
            env.put(Context.SECURITY_PRINCIPAL, settings.bindDn());
            env.put(Context.SECURITY_CREDENTIALS, settings.bindPassword());
        }
        try {
            return new InitialDirContext(env);
        } catch (NamingException e) {
            // not chained: its cause (a refused socket) would read as the database's connection lost
            throw new IllegalStateException("The directory at " + settings.url() + " could not be reached or refused the bind ("
                    + e.getExplanation() + (e.getRootCause() == null ? "" : ": " + e.getRootCause().getMessage())
                    + "); nothing was changed.");
        }
    }

    private List<Attributes> groupMembers(DirContext ctx, String group) throws NamingException {
        SearchControls scope = new SearchControls();
        scope.setSearchScope(SearchControls.SUBTREE_SCOPE);
        scope.setReturningAttributes(new String[] {"memberUid", "member", "uniqueMember"});
        List<Attributes> people = new ArrayList<>();
        NamingEnumeration<SearchResult> groups = ctx.search(settings.groupsBase(),
                "(&(|(objectClass=posixGroup)(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=group))(cn={0}))",
                new Object[] {group}, scope);
        while (groups.hasMore()) {
            Attributes g = groups.next().getAttributes();
            for (String uid : values(g.get("memberUid"))) {
                people.addAll(byUid(ctx, uid));
            }
            for (String attribute : List.of("member", "uniqueMember")) {
                for (String dn : values(g.get(attribute))) {
                    people.add(ctx.getAttributes(new javax.naming.ldap.LdapName(dn), PERSON));
                }
            }
        }
        return people;
    }

    private List<Attributes> byUid(DirContext ctx, String uid) throws NamingException {
        SearchControls scope = new SearchControls();
        scope.setSearchScope(SearchControls.SUBTREE_SCOPE);
        scope.setReturningAttributes(PERSON);
        List<Attributes> found = new ArrayList<>();
        NamingEnumeration<SearchResult> people = ctx.search(settings.peopleBase(), "(|(uid={0})(sAMAccountName={0}))",
                new Object[] {uid}, scope);
        while (people.hasMore()) {
            found.add(people.next().getAttributes());
        }
        return found;
    }

    private static Member member(Attributes person, String group) throws NamingException {
        String uid = first(person, "uid");
        if (uid == null) {
            uid = first(person, "sAMAccountName");
        }
        if (uid == null) {
            return null;
        }
        String name = first(person, "displayName");
        if (name == null) {
            name = first(person, "cn");
        }
        return new Member(uid, name == null ? uid : name, Set.of(group), disabled(person));
    }

    /** shadowExpire (days since 1970) in the past, or Active Directory's disabled flag. */
    private static boolean disabled(Attributes person) throws NamingException {
        String expire = first(person, "shadowExpire");
        if (expire != null && expire.matches("\\d{1,9}") && Long.parseLong(expire) >= 0
                && LocalDate.ofEpochDay(Long.parseLong(expire)).isBefore(LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1))) {
            return true;
        }
        String control = first(person, "userAccountControl");
        return control != null && control.matches("\\d{1,10}") && (Long.parseLong(control) & ACCOUNT_DISABLED) != 0;
    }

    private static Member joined(Member a, Member b) {
        Set<String> groups = new LinkedHashSet<>(a.groups());
        groups.addAll(b.groups());
        return new Member(a.uid(), a.displayName(), Set.copyOf(groups), a.disabled() || b.disabled());
    }

    private static String first(Attributes person, String attribute) throws NamingException {
        Attribute a = person.get(attribute);
        return a == null || a.size() == 0 ? null : String.valueOf(a.get(0));
    }

    private static List<String> values(Attribute a) throws NamingException {
        List<String> out = new ArrayList<>();
        if (a != null) {
            for (int i = 0; i < a.size(); i++) {
                out.add(String.valueOf(a.get(i)));
            }
        }
        return out;
    }
}
