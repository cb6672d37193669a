package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;

/**
 * How long creating a newsroom's people takes as it grows: people and their accounts made through
 * the product's own path (the person, then {@code create_account} as {@code copydesk editors add}
 * does), in steps up to each size of {@code bench.sizes} (default 100, 300, 1000), with the seconds
 * per account of each step. The cost of one account must not grow with the number already there.
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
        try (TestDatabase db = TestDatabase.create("provisioning", 2)) {
            DSLContext owner = db.dsl();
            Newsroom newsroom = new Newsroom(owner);
            newsroom.addDesk("news", "News", java.time.Duration.ofMinutes(30));
            AccountAdministration accounts = new AccountAdministration(owner);
            int accountsBefore = owner.fetchOne("select count(*) from mysql.user").get(0, Integer.class);
            report.append("Provisioning on ").append(owner.fetchOne("select version()").get(0, String.class)).append(", ")
                    .append(Instant.now()).append(", ").append(accountsBefore).append(" accounts on the server before\n\n")
                    .append("| people (step) | seconds | seconds per account |\n|---|---|---|\n");
            List<String> made = new ArrayList<>();
            try {
                int done = 0;
                for (int size : sizes) {
                    long started = System.nanoTime();
                    for (int i = done; i < size; i++) {
                        String name = prefix + "_" + i;
                        newsroom.addEditor(name, "Person " + i, Role.EDITOR, 5, List.of("news"));
                        made.add(name);
                        accounts.createAccount(name, ("pw-" + name + "-x9k2").toCharArray());
                    }
                    double seconds = (System.nanoTime() - started) / 1e9;
                    String row = String.format(Locale.ROOT, "| %,d (%,d → %,d) | %.1f | %.3f |%n", size - done, done, size, seconds,
                            seconds / (size - done));
                    report.append(row);
                    System.out.print(row);
                    done = size;
                }
            } finally {
                made.forEach(name -> owner.execute("drop user if exists '" + name + "'@'%'"));
            }
        }
        String out = System.getProperty("bench.out");
        if (out != null) {
            Report.write(Path.of(out), report.toString());
        }
        System.exit(0);
    }
}
