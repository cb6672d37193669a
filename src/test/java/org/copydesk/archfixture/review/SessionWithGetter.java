package org.copydesk.archfixture.review;

/** A session that hands out its jOOQ context (wall 9 must catch the caller in cli) and a harmless name. */
public final class SessionWithGetter {

    public org.jooq.DSLContext dsl() {
        return null;
    }

    public String name() {
        return "session";
    }
}
