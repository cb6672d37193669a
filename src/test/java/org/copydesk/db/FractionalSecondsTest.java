package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Date-times keep their microseconds on the way into the database, on every server. On MariaDB
 * 10.x, Connector/J reads the handshake's {@code 5.5.5-10.x.y} as a server older than MySQL 5.6.4 and
 * binds whole seconds; {@link DataSources#forServer} works round it. Runs on the run's server (see
 * {@code TestServer}): the first test fails on MariaDB 10.x without the work-round.
 */
@ExtendWith(DatabaseExtension.class)
class FractionalSecondsTest {

    private static final LocalDateTime AT = LocalDateTime.of(2030, 1, 1, 10, 0, 0, 123_456_000);
    private static final Table<?> PROBE = DSL.table(DSL.name("fraction_probe"));
    private static final Field<Integer> ID = DSL.field(DSL.name("id"), Integer.class);
    private static final Field<LocalDateTime> STORED = DSL.field(DSL.name("stored_at"), LocalDateTime.class);

    private final TestDatabase db;

    FractionalSecondsTest(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void probeTable() {
        db.dsl().execute("DROP TABLE IF EXISTS fraction_probe");
        db.dsl().execute("CREATE TABLE fraction_probe (id INT PRIMARY KEY, stored_at DATETIME(6) NOT NULL)");
    }

    @Test
    void copydesksDataSourceKeepsMicrosecondsThroughJooqAndPlainJdbc() throws SQLException {
        DSLContext dsl = db.dsl();
        dsl.insertInto(PROBE).columns(ID, STORED).values(1, AT).execute();
        try (Connection c = db.database().dataSource().getConnection()) {
            insert(c, 2, ps -> ps.setTimestamp(2, Timestamp.valueOf(AT)));
            insert(c, 3, ps -> ps.setObject(2, AT));
        }

        assertThat(dsl.select(ID, STORED).from(PROBE).orderBy(ID).fetch(STORED)).as(db.database().capabilities().announcedVersion())
                .containsExactly(AT, AT, AT);
        // A bound date-time still compares as a date-time (not as text) in WHERE and in expressions.
        assertThat(dsl.fetchCount(PROBE, STORED.eq(AT))).isEqualTo(3);
        assertThat(dsl.fetchCount(PROBE, STORED.lt(AT.plusNanos(1_000)))).isEqualTo(3);
        assertThat(dsl.fetchCount(PROBE, STORED.gt(AT.minusNanos(1_000)))).isEqualTo(3);
        assertThat(dsl.select(DSL.greatest(STORED, DSL.val(AT.minusSeconds(1)))).from(PROBE).where(ID.eq(1)).fetchOne(0,
                LocalDateTime.class)).isEqualTo(AT);
        assertThat(dsl.select(DSL.localDateTimeAdd(DSL.val(AT), 1, org.jooq.DatePart.SECOND)).fetchOne(0, LocalDateTime.class))
                .isEqualTo(AT.plusSeconds(1));
    }

    @Test
    void theCapabilitySaysWhetherTheBareDriverDropsFractionsOnThisServer() throws SQLException {
        ServerCapabilities caps = db.database().capabilities();
        try (HikariDataSource bare = DataSources.create(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(),
                null, DataSources.PoolSize.of(1), "fraction-probe")) {
            try (Connection c = bare.getConnection()) {
                insert(c, 5, ps -> ps.setObject(2, AT));
            }
        }
        LocalDateTime stored = db.dsl().select(STORED).from(PROBE).where(ID.eq(5)).fetchOne(STORED);

        assertThat(stored).as("%s: driver drops fractions = %s", caps.announcedVersion(), caps.driverDropsFractionalSeconds())
                .isEqualTo(caps.driverDropsFractionalSeconds() ? AT.withNano(0) : AT);
    }

    @Test
    void textBindingKeepsMicrosecondsOnAnyServer() throws SQLException {
        DataSource asText = DateTimesAsText.wrap(db.database().dataSource());
        try (Connection c = asText.getConnection()) {
            insert(c, 6, ps -> ps.setObject(2, AT));
            insert(c, 7, ps -> ps.setTimestamp(2, Timestamp.valueOf(AT.withNano(0))));
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM fraction_probe WHERE stored_at = ?")) {
                ps.setObject(1, AT);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
            }
        }
        assertThat(db.dsl().select(STORED).from(PROBE).where(ID.in(6, 7)).orderBy(ID).fetch(STORED))
                .containsExactly(AT, AT.withNano(0));
    }

    @Test
    void onlyDateTimesWithAFractionBecomeText() {
        assertThat(DateTimesAsText.asText(AT, null)).isEqualTo("2030-01-01 10:00:00.123456");
        assertThat(DateTimesAsText.asText(AT.withNano(0), null)).isNull();
        assertThat(DateTimesAsText.asText(Timestamp.valueOf(AT), null)).isEqualTo("2030-01-01 10:00:00.123456");
        assertThat(DateTimesAsText.asText(OffsetDateTime.of(AT, ZoneOffset.UTC), null)).as("left to the driver").isNull();
        assertThat(DateTimesAsText.asText("2030-01-01", null)).isNull();
        assertThat(DateTimesAsText.asText(42, null)).isNull();
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static void insert(Connection c, int id, Binder binder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO fraction_probe (id, stored_at) VALUES (?, ?)")) {
            ps.setInt(1, id);
            binder.bind(ps);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

}
