package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.copydesk.lease.LostReason;
import org.copydesk.review.outcomes.RelayProcedures;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract between the two languages, read from the server after the migrations: every
 * {@link Operation} Java calls exists there with as many parameters as Java sends; every operation a
 * role may call is one Java knows; and {@link HistoryAction} names exactly the actions the
 * operations' texts write to the history. Answers given as codes are read strictly.
 */
@ExtendWith(DatabaseExtension.class)
class OperationsCatalogTest {

    /** {@code CALL log_event(row, 'action', …)} and {@code INSERT INTO lease_event … VALUES (…, CAST(row AS CHAR), 'action', …)}. */
    private static final Pattern WRITES_ACTION = Pattern.compile(
            "(?:log_event\\(\\s*[^,()]+,\\s*|CAST\\([^()]*AS CHAR\\)\\s*,\\s*|v_now,\\s*'[a-z_]+',\\s*v_[a-z_]+,\\s*)'([a-z_]+)'",
            Pattern.CASE_INSENSITIVE); // the last: a row keyed by a name (an editor's refresh row)

    private final DSLContext dsl;

    OperationsCatalogTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @Test
    void everyOperationJavaCallsIsARoutineOfTheDatabaseWithAsManyParameters() {
        Map<String, Integer> parameters = dsl.fetch("select r.routine_name, (select count(*) from information_schema.parameters p"
                        + " where p.specific_schema = r.routine_schema and p.specific_name = r.routine_name"
                        + " and p.parameter_mode is not null) from information_schema.routines r"
                        + " where r.routine_schema = database() and r.routine_type = 'PROCEDURE'")
                .stream().collect(Collectors.toMap(r -> r.get(0, String.class).toLowerCase(Locale.ROOT),
                        r -> r.get(1, Integer.class)));
        for (Operation operation : Operation.values()) {
            assertThat(parameters).as("the routine %s", operation.routine()).containsKey(operation.routine());
            assertThat(parameters.get(operation.routine())).as("parameters of %s", operation.routine())
                    .isEqualTo(operation.parameters());
        }
    }

    @Test
    void everyOperationARoleMayCallIsOneJavaKnows() {
        Set<String> known = Arrays.stream(Operation.values()).map(Operation::routine).collect(Collectors.toSet());
        Set<String> granted = new TreeSet<>(dsl.fetch("select object_name from role_grant where privilege = 'EXECUTE'")
                .getValues(0, String.class));
        assertThat(granted).isNotEmpty();
        assertThat(known).containsAll(granted);
    }

    @Test
    void historyActionNamesExactlyWhatTheOperationsWrite() {
        Set<String> written = new TreeSet<>();
        for (Record2<String, String> routine : dsl.resultQuery("select routine_name, routine_definition"
                + " from information_schema.routines where routine_schema = database()").coerce(
                        DSL.field("routine_name", String.class), DSL.field("routine_definition", String.class))
                .fetch()) {
            Matcher m = WRITES_ACTION.matcher(routine.value2() == null ? "" : routine.value2());
            while (m.find()) {
                written.add(m.group(1));
            }
        }
        // decide_article writes the verdict itself as the action (p_verdict), which it checks is one of these
        Arrays.stream(Verdict.values()).map(Verdict::code).forEach(written::add);
        assertThat(written).as("actions in the routines' texts").contains("claim", "expire", "refresh", "complete");

        Set<String> named = Arrays.stream(HistoryAction.values()).map(HistoryAction::code).collect(Collectors.toSet());
        assertThat(new TreeSet<>(named)).isEqualTo(written);
    }

    @Test
    void everyRefusalFitsWhatMySqlCanSay() throws IOException {
        // MySQL caps MESSAGE_TEXT at 128 characters and answers a longer one with "Data too long for
        // condition item", losing the words and the SQLSTATE (40001 is what the retry loop runs again)
        Pattern text = Pattern.compile("MESSAGE_TEXT\\s*=\\s*'((?:[^']|'')*)'");
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("db", "routines"))) {
            for (Path file : files.sorted().toList()) {
                Matcher m = text.matcher(Files.readString(file));
                while (m.find()) {
                    String said = m.group(1).replace("''", "'");
                    if (said.length() > 128) {
                        tooLong.add(file.getFileName() + " (" + said.length() + "): " + said);
                    }
                }
            }
        }
        assertThat(tooLong).isEmpty();
    }

    @Test
    void anAnswerThisVersionDoesNotKnowIsABugNotALostLease() {
        assertThat(DatabaseOperations.outcome(Operation.DECIDE_ARTICLE, ReviewProcedures.DecideOutcome.class, "lost"))
                .isEqualTo(ReviewProcedures.DecideOutcome.LOST);
        assertThatThrownBy(() -> DatabaseOperations.outcome(Operation.DECIDE_ARTICLE, ReviewProcedures.DecideOutcome.class,
                "vanished")).isInstanceOf(IllegalStateException.class).hasMessageContaining("decide_article answered 'vanished'");
        assertThatThrownBy(() -> DatabaseOperations.outcome(Operation.RELAY_RECORD_ATTEMPT, RelayProcedures.Delivery.class,
                "bounced")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> HistoryAction.of("teleport")).isInstanceOf(IllegalStateException.class);
        assertThat(HistoryAction.of("force_release").endsLeaseAs()).contains(LostReason.FORCE_RELEASED);
    }

    @Test
    void anOperationSentWithTheWrongNumberOfValuesIsABugCaughtBeforeTheServer() {
        assertThatThrownBy(() -> DatabaseOperations.withDefaultRetries(dsl).fetch(Operation.RELEASE_ARTICLE, "ann", 1L))
                .isInstanceOf(IllegalStateException.class).hasMessage("release_article takes 4 values, not 2");
    }
}
