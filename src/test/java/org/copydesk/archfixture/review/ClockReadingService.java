package org.copydesk.archfixture.review;

import java.time.LocalDateTime;
import java.util.function.Supplier;
import org.copydesk.AllowedBecause;
import org.jooq.Field;
import org.jooq.impl.DSL;

/** Reads the server's clock and account itself instead of through their homes (wall 8), once with a reason. */
public final class ClockReadingService {
    public Field<LocalDateTime> secondsOnly() {
        return DSL.currentLocalDateTime();
    }

    public Supplier<Field<String>> whoAmI() {
        return DSL::currentUser;
    }

    @AllowedBecause("fixture: a method-level exception")
    public Field<java.sql.Timestamp> exemptNow() {
        return DSL.now();
    }
}
