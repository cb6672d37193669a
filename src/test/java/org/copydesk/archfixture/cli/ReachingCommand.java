package org.copydesk.archfixture.cli;

import org.copydesk.archfixture.review.SessionWithGetter;

/** A command that reaches SQL through a getter of ours (caught by wall 9), and one that does not. */
final class ReachingCommand {

    Object run(SessionWithGetter session) {
        return session.dsl();
    }

    String fine(SessionWithGetter session) {
        return session.name();
    }
}
