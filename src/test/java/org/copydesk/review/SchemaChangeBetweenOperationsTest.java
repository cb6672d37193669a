package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An upgrade changes tables while the newsroom works, so a session that ran the operations before
 * a schema change runs them again after it, with the routines it has cached. On MariaDB 11.4.5 (the
 * embedded server) a routine statement whose table changed is parsed again, and a cursor whose
 * query began on the line after {@code CURSOR FOR} came back as a syntax error and then crashed the
 * whole server (signal 11) within a few calls: every editor's work stopped with it. This runs the
 * operations that read tables through cursors from one editor's session, with every table of the
 * schema altered between rounds, and checks that none failed and the server still answers; and it
 * keeps every routine's cursors written the way that is parsed again correctly.
 */
@ExtendWith(DatabaseExtension.class)
class SchemaChangeBetweenOperationsTest {

    private static final String EDITOR = "scbo_editor";
    private static final String PASSWORD = "schema-change-1";
    /** A cursor whose query does not start on the line of CURSOR FOR: parsed again wrongly by MariaDB 11.4.5. */
    private static final Pattern CURSOR_QUERY_ON_NEXT_LINE = Pattern.compile("CURSOR\\s+FOR[ \\t]*\\r?\\n");

    private final TestDatabase db;
    private final DSLContext root;

    SchemaChangeBetweenOperationsTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    @Test
    void operationsRunAgainAfterEveryTableChangedAndTheServerStaysUp() {
        Newsroom newsroom = new Newsroom(root);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addEditor(EDITOR, "Editor", Role.EDITOR, 5, List.of("news"));
        // server accounts outlive a test's database: one left by a run that stopped midway goes first
        root.execute("drop user if exists '" + EDITOR + "'@'%'");
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount(EDITOR, PASSWORD.toCharArray());
        Fixtures.articles(root, "news", 120, 3, -60);
        List<String> tables = root.fetch("select table_name from information_schema.tables"
                + " where table_schema = database() and table_type = 'BASE TABLE'").getValues(0, String.class);
        List<String> failures = new ArrayList<>();
        // one connection: the routines the session cached before a change are the ones it runs after it
        try (Database editor = Database.open(db.endpoint().accountUrl(db.name()), EDITOR, PASSWORD.toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
            ReviewSession session = new ReviewSession(editor, ReviewSession.Options.defaults());
            ReleaseService release = session.releaseService(l -> { });
            for (int round = 0; round < 8; round++) {
                try {
                    List<HeldArticle> held = session.queue().claim(EDITOR).articles();
                    session.queue().renew(EDITOR, held);
                    HeldArticle first = held.get(0);
                    session.decisions().submit(new DecisionRequest(UUID.randomUUID(), first.id(), first.lease(),
                            Verdict.APPROVE, "fine"));
                    // the lapsed leases make the next claim's cursors take over, and the sweep free them
                    Fixtures.letTimePass(root, Duration.ofHours(1), held.stream().skip(1).map(HeldArticle::id).toList());
                    release.runOnce();
                } catch (RuntimeException e) {
                    failures.add("round " + round + ": " + Attacks.rootMessage(e));
                }
                int r = round;
                tables.forEach(t -> root.execute("alter table `" + t + "` comment = 'round " + r + "'"));
            }
            release.close();
        } finally {
            accounts.dropAccount(EDITOR);
        }
        assertThat(root.fetchOne("select 1").get(0, Integer.class)).as("the server answers").isEqualTo(1);
        assertThat(failures).as("operations after a schema change").isEmpty();
    }

    @Test
    void everyCursorsQueryStartsOnTheLineOfItsDeclaration() throws IOException {
        List<String> offending = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("db", "routines"))) {
            for (Path file : files.sorted().toList()) {
                Matcher m = CURSOR_QUERY_ON_NEXT_LINE.matcher(Files.readString(file));
                while (m.find()) {
                    offending.add(file.getFileName() + " at character " + m.start());
                }
            }
        }
        assertThat(offending).as("write 'DECLARE name CURSOR FOR SELECT …' with SELECT on the same line").isEmpty();
    }
}
