package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.QueueStatistics.EditorLoad;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The "give to" pickers say who is signed in and who is full, and list those signed in with room
 * first, so a supervisor does not hand work to someone away or full; a full person may still be
 * chosen, and the capacity question is still asked. View model, same-thread executor, real database.
 */
@ExtendWith(DatabaseExtension.class)
class PersonPickerTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private LeaseActionsViewModel model;

    PersonPickerTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Editor sue = NewsroomCast.on(services, dsl).desks("news").ann("news").bob("news").dan("news").sue("news");
        services.newsroom().addEditor("cy", "Cy Moreau", Role.EDITOR, 4, List.of("news"));
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann"); // Article 0, 1, 2: full, 3 of 3
        services.queue().claim("bob"); // Article 3, 4: full, 2 of 2
        services.queue().claim("cy"); // Article 5: 1 of 4
        services.queue().recordPresence("ann");
        services.queue().recordPresence("dan");
        services.queue().recordPresence("cy");
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        model = dashboard.leaseActions();
        dashboard.start();
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private List<String> labels() {
        return model.reassignCandidates().stream().map(model::candidateLabel).toList();
    }

    @Test
    void thePickerSaysWhoIsSignedInAndWhoIsFullAndListsThoseSignedInWithRoomFirst() {
        HoldersViewModel holders = dashboard.holders();
        holders.select(holders.rows().stream().filter(r -> r.title().equals("Article 3")).toList()); // Bob's

        assertThat(labels()).containsExactly(
                "Cy Moreau (cy) \u2014 signed in, 1 of 4",
                "Dan Ito (dan) \u2014 signed in, 0 of 1",
                "Ann Kowalski (ann) \u2014 signed in, full, 3 of 3",
                "Sue Lindqvist (sue) \u2014 signed out, 0 of 5");
    }

    @Test
    void whatEachHoldsFollowsTheLiveLeasesWithoutWaitingForTheNextPresenceRead() {
        HoldersViewModel holders = dashboard.holders();
        holders.select(holders.rows().stream().filter(r -> r.title().equals("Article 3")).toList());
        services.queue().release(services.queue().held("cy").get(0));

        ticker.advance(Duration.ofSeconds(2)); // the leases' refresh, not the half-minute presence read

        assertThat(labels()).startsWith("Cy Moreau (cy) \u2014 signed in, 0 of 4");
    }

    @Test
    void choosingSomeoneFullStillAsksTheCapacityQuestion() {
        HoldersViewModel holders = dashboard.holders();
        holders.select(holders.rows().stream().filter(r -> r.title().equals("Article 3")).toList());
        Editor ann = model.reassignCandidates().stream().filter(e -> e.id().equals("ann")).findFirst().orElseThrow();
        model.reassignToProperty().set(ann);
        model.reassignSelected();
        model.confirm();

        assertThat(model.capacityWarningProperty().get())
                .isEqualTo("Ann Kowalski already holds 3 of 3 articles. Reassign anyway to go over capacity.");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.TITLE.eq("Article 3"))).isEqualTo("bob");
    }

    @Test
    void presenceReadHalfAMinuteAgoIsAgedOnTheLocalTickerBetweenReads() {
        FloorStanding floor = new FloorStanding();
        Editor dan = new Editor("dan", "Dan Ito", Role.EDITOR, 1, List.of("news"), null);
        floor.seen(List.of(new EditorLoad("dan", "Dan Ito", Role.EDITOR, 1, 0, 0, Duration.ofSeconds(150))), 0);
        Duration idle = Duration.ofMinutes(3);
        Duration offline = Duration.ofMinutes(30);

        assertThat(floor.of(dan, Duration.ofSeconds(20).toNanos(), idle, offline).presence()).isEqualTo(Presence.ACTIVE);
        assertThat(floor.of(dan, Duration.ofSeconds(40).toNanos(), idle, offline).presence()).isEqualTo(Presence.IDLE);
    }
}
