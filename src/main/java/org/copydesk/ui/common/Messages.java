package org.copydesk.ui.common;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * The words the app shows, from {@code org/copydesk/ui/messages.properties} (English), so the app can be
 * translated by adding {@code messages_xx.properties} beside it. Every value is a {@link MessageFormat}
 * pattern: arguments are {@code {0}}, plurals are choices ({@code {0,choice,1#1 event|1<{0,number,integer} events}}),
 * and an apostrophe is written twice ({@code ''}). Keys name where and what ({@code editor.submit}).
 */
public final class Messages {

    public static final String BUNDLE = "org.copydesk.ui.messages";

    private Messages() {
    }

    /** The text for {@code key} in the user's locale, with {@code args} filled in. */
    public static String text(String key, Object... args) {
        return text(Locale.getDefault(Locale.Category.DISPLAY), key, args);
    }

    public static String text(Locale locale, String key, Object... args) {
        return new MessageFormat(ResourceBundle.getBundle(BUNDLE, locale).getString(key), locale).format(args);
    }
}
