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
 *
 * <p>Each is named with whether they are signed in and how much they hold ("Ann Lee (ann) — signed
 * in, 3 of 5"), and those signed in with room come first: work given to someone away or full sits
 * unread, or needs the capacity question answered. Choosing a full person still asks it.
 */
final class Recipients {

    private Recipients() {
    }

    /**
     * Who may be given articles of {@code desks}, except {@code except} (the one who holds them all, if any):
     * by {@link FloorStanding.Standing#rank()}, then those on the desks first, then by name.
     */
    static List<Editor> of(Collection<Editor> people, Set<String> desks, String except,
                           Function<Editor, FloorStanding.Standing> standing) {
        List<Editor> fit = new ArrayList<>();
        for (Editor e : people) {
            if (e.capacity() > 0 && !e.id().equals(except)) {
                fit.add(e);
            }
        }
        fit.sort(Comparator.comparingInt((Editor e) -> standing.apply(e).rank())
                .thenComparing(e -> lacks(e, desks))
                .thenComparing(e -> e.displayName().toLowerCase(java.util.Locale.ROOT)));
        return fit;
    }

    /** Whether {@code e} lacks one of {@code desks}. */
    static boolean lacks(Editor e, Set<String> desks) {
        return !e.desks().containsAll(desks);
    }

    /**
     * "Cat Diaz (cat) — signed in, 3 of 5", "… — signed out, full: 5 of 5", with " · not on News" for
     * someone without the desk. Before presence is first read, only what they hold.
     */
    static String label(Editor e, Set<String> desks, Function<String, String> deskName, FloorStanding.Standing standing,
                        boolean presenceKnown) {
        String name = Messages.text("dashboard.actions.editorWithId", e.displayName(), e.id());
        String load = Messages.text(standing.full() ? "dashboard.picker.full" : "dashboard.picker.holds",
                standing.held(), standing.capacity());
        String with = presenceKnown
                ? Messages.text("dashboard.picker.person", name, Messages.text(presenceKey(standing.presence())), load)
                : Messages.text("dashboard.picker.personLoadOnly", name, load);
        return lacks(e, desks) ? Messages.text("dashboard.actions.notOnDesk", with, missing(e, desks, deskName)) : with;
    }

    private static String presenceKey(Presence p) {
        return switch (p) {
            case ACTIVE -> "dashboard.picker.signedIn";
            case IDLE -> "dashboard.picker.idle";
            case OFFLINE -> "dashboard.picker.signedOut";
        };
    }

    /** " Cat Diaz does not work on News; this gives them the article, not the desk." or "". */
    static String deskNote(Editor to, Set<String> desks, Function<String, String> deskName) {
        return lacks(to, desks) ? " " + Messages.text("dashboard.actions.outsideDesk", to.displayName(), missing(to, desks, deskName)) : "";
    }

    private static String missing(Editor e, Set<String> desks, Function<String, String> deskName) {
        return Formats.list(desks.stream().filter(d -> !e.desks().contains(d)).map(deskName).sorted().toList());
    }
}
