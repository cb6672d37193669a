package org.copydesk.review;

import org.jooq.DSLContext;

/** Sets the server's global time zone for a test and puts it back. Sessions opened by the app still use UTC. */
final class TestServerTimeZone {

    private final DSLContext dsl;
    private final String previous;

    private TestServerTimeZone(DSLContext dsl, String previous) {
        this.dsl = dsl;
        this.previous = previous;
    }

    static TestServerTimeZone set(DSLContext dsl, String zone) {
        String previous = dsl.fetchOne("select @@global.time_zone").get(0, String.class);
        dsl.execute("set global time_zone = ?", zone);
        return new TestServerTimeZone(dsl, previous);
    }

    void restore() {
        dsl.execute("set global time_zone = ?", previous);
    }
}
