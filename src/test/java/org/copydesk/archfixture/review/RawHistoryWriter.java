package org.copydesk.archfixture.review;

import java.sql.Connection;
import java.sql.SQLException;
import org.copydesk.AllowedBecause;
import org.jooq.DSLContext;
import org.jooq.Table;

/** Writes tables with statements written as text, jOOQ's and JDBC's (wall 10), and purges once with a reason. */
public final class RawHistoryWriter {
    public int append(DSLContext dsl) {
        return dsl.execute("insert into lease_event (action) values ('claim')");
    }

    public int appendOverJdbc(Connection c) throws SQLException {
        return c.prepareStatement("update article set locked_by = null").executeUpdate();
    }

    @AllowedBecause("fixture: an administrator's purge, with its reason")
    public int exemptPurge(DSLContext dsl, Table<?> history) {
        return dsl.deleteFrom(history).execute();
    }
}
