package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.text.MessageFormat;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The bundle holds every key the code names, nothing else, and each value reads as a pattern. */
class MessagesTest {

    @Test
    void everyKeyTheCodeNamesIsInTheBundle() {
        Set<String> missing = new TreeSet<>(UiText.keysUsed());
        missing.removeAll(UiText.bundle().stringPropertyNames());
        assertThat(missing).as("keys used in ui.* but missing from messages.properties").isEmpty();
    }

    @Test
    void theBundleHoldsNoKeyTheCodeNoLongerNames() {
        Set<String> unused = new TreeSet<>(UiText.bundle().stringPropertyNames());
        unused.removeAll(UiText.keysUsed());
        assertThat(unused).as("keys in messages.properties that no code uses").isEmpty();
    }

    @Test
    void everyValueIsAPatternWithItsApostrophesDoubled() {
        Properties bundle = UiText.bundle();
        for (String key : bundle.stringPropertyNames()) {
            String value = bundle.getProperty(key);
            assertThatCode(() -> new MessageFormat(value, Locale.ENGLISH)).as(key).doesNotThrowAnyException();
            // a single apostrophe starts a quote in MessageFormat and silently eats the text after it
            assertThat(value.replace("''", "").replace("'{'", "").replace("'}'", "")).as(key).doesNotContain("'");
        }
    }

    @Test
    void countsSayOneEventAndManyEvents() {
        assertThat(Messages.text(Locale.ENGLISH, "common.count.events", 0)).isEqualTo("0 events");
        assertThat(Messages.text(Locale.ENGLISH, "common.count.events", 1)).isEqualTo("1 event");
        assertThat(Messages.text(Locale.ENGLISH, "common.count.events", 2)).isEqualTo("2 events");
        assertThat(Messages.text(Locale.ENGLISH, "common.count.events", 1204)).isEqualTo("1,204 events");
        assertThat(Messages.text(Locale.ENGLISH, "editor.leave.question", 1)).isEqualTo("Give back your article?");
        assertThat(Messages.text(Locale.ENGLISH, "editor.leave.question", 4)).isEqualTo("Give back your 4 articles?");
    }

    @Test
    void argumentsAndQuotesComeOutAsWritten() {
        assertThat(Messages.text(Locale.ENGLISH, "dashboard.actions.outcome.alreadyTheirs", "Cup draw", "Bob"))
                .isEqualTo("\u201cCup draw\u201d is Bob's already; left as it is.");
        assertThat(Messages.text(Locale.ENGLISH, "dashboard.quarantine.rowRequeued", 1042, "feed.csv", 20417L))
                .as("line and article numbers are not grouped like amounts")
                .isEqualTo("Line 1042 of feed.csv is article 20417 now, waiting for review.");
    }

    @Test
    void timesFollowTheUsersLocale() {
        LocalDateTime utc = LocalDateTime.of(2026, 11, 23, 13, 5);
        ZoneId london = ZoneId.of("Europe/London");
        assertThat(Formats.localClock(utc, london, Locale.UK)).isEqualTo("13:05");
        assertThat(Formats.localClock(utc, london, Locale.US)).matches("1:05\\hPM");
        assertThat(Formats.localDayClock(utc, london, Locale.GERMANY)).isEqualTo("23.11.2026, 13:05");
        assertThat(Formats.localDayClock(utc, london, Locale.US)).matches("Nov 23, 2026, 1:05\\hPM");
    }

    @Test
    void listsJoinWithAnd() {
        assertThat(Formats.list(List.of())).isEmpty();
        assertThat(Formats.list(List.of("News"))).isEqualTo("News");
        assertThat(Formats.list(List.of("News", "Sport"))).isEqualTo("News and Sport");
        assertThat(Formats.list(List.of("News", "Sport", "Culture"))).isEqualTo("News, Sport and Culture");
    }
}
