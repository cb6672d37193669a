package org.copydesk.review;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * Words for a person, as a key of Copydesk's message bundle ({@code org/copydesk/ui/messages.properties})
 * with its arguments: what the review services say (why a lease is no longer yours, why a decision
 * was refused, why a request cannot be done) without writing English themselves. The screens and
 * the command line show {@link #text()}; a translation is a {@code messages_xx.properties} beside
 * the bundle. An argument that is itself a phrase is put into words first.
 */
public record Phrase(String key, List<Object> args) {

    /** The bundle the screens read too (through {@code ui.common.Messages}). */
    public static final String BUNDLE = "org.copydesk.ui.messages";

    public Phrase {
        args = Collections.unmodifiableList(new ArrayList<>(args)); // an argument may be null (a name not known)
    }

    public static Phrase of(String key, Object... args) {
        return new Phrase(key, Arrays.asList(args));
    }

    /** In the user's display language. */
    public String text() {
        return text(Locale.getDefault(Locale.Category.DISPLAY));
    }

    public String text(Locale locale) {
        Object[] values = args.stream().map(a -> a instanceof Phrase p ? p.text(locale) : a).toArray();
        return new MessageFormat(ResourceBundle.getBundle(BUNDLE, locale).getString(key), locale).format(values);
    }

    @Override
    public String toString() {
        return text();
    }
}
