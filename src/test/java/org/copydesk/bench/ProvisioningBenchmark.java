package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;

/**
 * How long creating a newsroom's people takes as it grows: people and their accounts made through
 * the product's own path (the person, then {@code create_account} as {@code copydesk editors add}
 * does), in steps up to each size of {@code bench.sizes} (default 100, 300, 1000), with the seconds
 * per account of each step. The cost of one account must not grow with the number already there.
 * Where a directory is set up ({@code .ci/directory.sh start}, its env: Debian's MariaDB with PAM and
 * a slapd), the people are added to a directory group instead and made by {@code people sync}.
 * {@code mvn -q test-compile exec:exec@provisioning-benchmark} (docs/benchmarks.md).
 */
public final class ProvisioningBenchmark {

    private ProvisioningBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = Arrays.stream(System.getProperty("bench.sizes", "100,300,1000").split(","))
                .map(String::strip).map(Integer::valueOf).toList();
        String prefix = "pv" + Long.toString(System.nanoTime() % 100_000, 36);
        StringBuilder report = new StringBuilder();
        DirectoryBench directory = System.getenv("COPYDESK_TEST_DIRECTORY_URL") == null ? null : new DirectoryBench(prefix);
        try (TestDatabase db = TestDatabase.create("provisioning", 2)) {
            DSLContext owner = db.dsl();
            Newsroom newsroom = new Newsroom(owner);
            newsroom.addDesk("news", "News", java.time.Duration.ofMinutes(30));
            AccountAdministration accounts = new AccountAdministration(owner);
            int accountsBefore = owner.fetchOne("select count(*) from mysql.user").get(0, Integer.class);
            String path = directory == null ? "Provisioning with passwords on " : "Provisioning by `people sync` from the directory on ";
            report.append(path).append(owner.fetchOne("select version()").get(0, String.class)).append(", ")
                    .append(Instant.now()).append(", ").append(accountsBefore).append(" accounts on the server before\n\n")
                    .append("| people (step) | seconds | seconds per account |\n|---|---|---|\n");
            List<String> made = new ArrayList<>();
            try {
                int done = 0;
                for (int size : sizes) {
                    long started = System.nanoTime();
                    if (directory != null) {
                        directory.join(prefix, done, size);
                        started = System.nanoTime(); // the directory's own additions are not the sync's
                        for (int i = done; i < size; i++) {
                            made.add(prefix + "_" + i);
                        }
                        directory.sync(new ReviewSession(db.database(), ReviewSession.Options.defaults()), size - done);
                    } else {
                        for (int i = done; i < size; i++) {
                            String name = prefix + "_" + i;
                            newsroom.addEditor(name, "Person " + i, Role.EDITOR, 5, List.of("news"));
                            made.add(name);
                            accounts.createAccount(name, ("pw-" + name + "-x9k2").toCharArray());
                        }
                    }
                    double seconds = (System.nanoTime() - started) / 1e9;
                    String row = String.format(Locale.ROOT, "| %,d (%,d → %,d) | %.1f | %.3f |%n", size - done, done, size, seconds,
                            seconds / (size - done));
                    report.append(row);
                    System.out.print(row);
                    done = size;
                }
                if (directory != null) {
                    long started = System.nanoTime();
                    directory.sync(new ReviewSession(db.database(), ReviewSession.Options.defaults()), 0);
                    String row = String.format(Locale.ROOT, "| a run with nothing to change, %,d people | %.1f | |%n", done,
                            (System.nanoTime() - started) / 1e9);
                    report.append(row);
                    System.out.print(row);
                }
            } finally {
                made.forEach(name -> owner.execute("drop user if exists '" + name + "'@'%'"));
                if (directory != null) {
                    directory.close();
                }
            }
        }
        String out = System.getProperty("bench.out");
        if (out != null) {
            Report.write(Path.of(out), report.toString());
        }
        System.exit(0);
    }
}
