package org.copydesk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.directory.BasicAttributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import org.copydesk.review.DirectoryPeople;
import org.copydesk.review.DirectorySettings;
import org.copydesk.review.PeopleSync;
import org.copydesk.review.ReviewSession;

/**
 * The provisioning benchmark's directory (the slapd of {@code .ci/directory.sh}): a group of its
 * own that people join in steps, and {@code people sync} run over it as the timer runs it.
 */
final class DirectoryBench implements AutoCloseable {

    private static final String BASE = "dc=newsroom,dc=example";

    private final String group;
    private final DirContext ctx;
    private final Path settings;
    private final List<String> people = new java.util.ArrayList<>();

    DirectoryBench(String prefix) throws Exception {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, System.getenv("COPYDESK_TEST_DIRECTORY_URL"));
        env.put(Context.SECURITY_PRINCIPAL, System.getenv("COPYDESK_TEST_DIRECTORY_ADMIN"));
        Path password = Path.of(System.getenv("COPYDESK_TEST_DIRECTORY_PASSWORD_FILE"));
        env.put(Context.SECURITY_CREDENTIALS, Files.readString(password));
        ctx = new InitialDirContext(env);
        group = "cn=" + prefix + "-group,ou=groups," + BASE;
        BasicAttributes g = new BasicAttributes(true);
        g.put("objectClass", "posixGroup");
        g.put("cn", prefix + "-group");
        g.put("gidNumber", "39999");
        ctx.createSubcontext(group, g);
        settings = Files.createTempFile("provisioning-directory", ".properties");
        Files.writeString(settings, String.join("\n", "url = " + System.getenv("COPYDESK_TEST_DIRECTORY_URL"),
                "bind.dn = " + System.getenv("COPYDESK_TEST_DIRECTORY_ADMIN"), "bind.password.file = " + password,
                "groups.base = ou=groups," + BASE, "people.base = ou=people," + BASE, "group." + prefix + "-group = editor: news") + "\n");
    }

    /** People {@code from} (inclusive) to {@code to} join the directory and the group. */
    void join(String prefix, int from, int to) throws NamingException {
        for (int i = from; i < to; i++) {
            String uid = prefix + "_" + i;
            BasicAttributes person = new BasicAttributes(true);
            person.put("objectClass", "inetOrgPerson");
            person.put("uid", uid);
            person.put("cn", "Person " + i);
            person.put("sn", "Person");
            ctx.createSubcontext("uid=" + uid + ",ou=people," + BASE, person);
            people.add(uid);
            ctx.modifyAttributes(group, DirContext.ADD_ATTRIBUTE, new BasicAttributes("memberUid", uid));
        }
    }

    /** One run of the sync, as the timer makes it; fails unless it added {@code expected} people. */
    void sync(ReviewSession session, int expected) {
        DirectorySettings s = DirectorySettings.read(settings);
        Map<String, DirectoryPeople.Member> members = new DirectoryPeople(s).members();
        PeopleSync sync = new PeopleSync(session);
        List<PeopleSync.Change> changes = sync.plan(s, members);
        List<String> done = sync.apply(s, members, changes);
        long added = done.stream().filter(line -> line.startsWith("add ") && line.endsWith(": done")).count();
        if (done.stream().anyMatch(line -> line.startsWith("FAILED")) || added != expected) {
            throw new IllegalStateException("the sync did not make what it should: " + done.stream().limit(3).toList());
        }
    }

    @Override
    public void close() throws Exception {
        for (String uid : people) {
            ctx.destroySubcontext("uid=" + uid + ",ou=people," + BASE);
        }
        ctx.destroySubcontext(group);
        ctx.close();
        Files.deleteIfExists(settings);
    }
}
