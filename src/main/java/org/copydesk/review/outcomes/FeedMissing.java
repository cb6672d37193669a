package org.copydesk.review.outcomes;

import java.sql.SQLException;
import org.copydesk.review.OperationRefusedException;
import org.copydesk.review.Phrase;

/**
 * Turns "no such table or procedure" and "denied" on the feed's objects into words an integrator
 * can act on; anything else, and the database's own refusals, stay as they are.
 */
final class FeedMissing {

    private FeedMissing() {
    }

    static RuntimeException explain(RuntimeException failure) {
        var refusal = OperationRefusedException.of(failure);
        if (refusal.isPresent()) {
            return refusal.get();
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException s) {
                switch (s.getErrorCode()) {
                    case 1146, 1305 -> {
                        return new IllegalStateException(Phrase.of("review.feed.missing").text(), failure);
                    }
                    case 1142, 1370, 1143 -> {
                        return new IllegalStateException(Phrase.of("review.feed.denied", s.getMessage()).text(), failure);
                    }
                    default -> {
                    }
                }
            }
        }
        return failure;
    }
}
