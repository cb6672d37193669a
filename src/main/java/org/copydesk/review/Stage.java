package org.copydesk.review;

import java.time.Duration;
import java.util.List;

/**
 * One stage of a desk's review chain ({@code desk_stage}; docs/workflow.md).
 *
 * @param position     1 for the first stage
 * @param leaseLength  null: the desk's lease length
 * @param whenAsked    entered only when an earlier reviewer or the import asked for it
 * @param fourEyes     no one who approved the article at another stage approves it here
 * @param namedTakers  taken only by {@code takers} (else by the desk's editors)
 * @param takers       the people named for the stage (empty unless {@code namedTakers})
 */
public record Stage(String desk, String id, int position, String name, Duration leaseLength, boolean whenAsked, boolean fourEyes,
                    boolean namedTakers, List<String> takers) {

    public Stage {
        takers = List.copyOf(takers);
    }
}
