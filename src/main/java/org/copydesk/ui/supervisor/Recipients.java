package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * Whom a supervisor may give articles to, for a reassignment and for an article given from the
 * queue alike: anyone who may hold articles (a capacity above 0), those who work on the articles'
 * desks first, then the others, each marked with the desks they lack. Giving an article to someone
 * without its desk gives them that lease only; the desk stays as it was.
 */
final class Recipients {

    private Recipients() {
    }

    /** Who may be given articles of {@code desks}, except {@code except} (the one who holds them all, if any). */
    static List<Editor> of(Collection<Editor> people, Set<String> desks, String except) {
        List<Editor> fit = new ArrayList<>();
        for (Editor e : people) {
            if (e.capacity() > 0 && !e.id().equals(except)) {
                fit.add(e);
            }
        }
        fit.sort(Comparator.comparing((Editor e) -> lacks(e, desks))
                .thenComparing(e -> e.displayName().toLowerCase(java.util.Locale.ROOT)));
        return fit;
    }

    /** Whether {@code e} lacks one of {@code desks}. */
    static boolean lacks(Editor e, Set<String> desks) {
        return !e.desks().containsAll(desks);
    }

    /** "Cat Diaz (cat)", or "Cat Diaz (cat) · not on News" for someone without the desk. */
    static String label(Editor e, Set<String> desks, Function<String, String> deskName) {
        String name = Messages.text("dashboard.actions.editorWithId", e.displayName(), e.id());
        return lacks(e, desks) ? Messages.text("dashboard.actions.notOnDesk", name, missing(e, desks, deskName)) : name;
    }

    /** " Cat Diaz does not work on News; this gives them the article, not the desk." or "". */
    static String deskNote(Editor to, Set<String> desks, Function<String, String> deskName) {
        return lacks(to, desks) ? " " + Messages.text("dashboard.actions.outsideDesk", to.displayName(), missing(to, desks, deskName)) : "";
    }

    private static String missing(Editor e, Set<String> desks, Function<String, String> deskName) {
        return Formats.list(desks.stream().filter(d -> !e.desks().contains(d)).map(deskName).sorted().toList());
    }
}
