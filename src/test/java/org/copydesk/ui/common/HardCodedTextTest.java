package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Words on screen come from the bundle: a string literal with words in a call that shows text
 * (labels, buttons, tooltips, accessible names, prompts, placeholders, titles, menu items, notices)
 * fails here. Exceptions are listed, with their reason, in {@link UiText#ALLOWED}.
 */
class HardCodedTextTest {

    @Test
    void noUiClassShowsWordsThatAreNotInTheBundle() {
        List<String> found = new ArrayList<>();
        for (Path file : UiText.sources(UiText.UI_SOURCES)) {
            found.addAll(UiText.hardCodedText(UiText.UI_SOURCES.relativize(file).toString(), UiText.read(file)));
        }
        assertThat(found).as("put these in org/copydesk/ui/messages.properties and use Messages.text(key)").isEmpty();
    }

    @Test
    void noReviewServiceHandsPeopleWordsThatAreNotInTheBundle() {
        List<String> found = new ArrayList<>();
        for (Path file : UiText.sources(UiText.REVIEW_SOURCES)) {
            String name = UiText.REVIEW_SOURCES.relativize(file).toString().replace('\\', '/');
            if (!UiText.REVIEW_NOT_SCANNED.containsKey(name)) {
                found.addAll(UiText.hardCodedReviewText(name, UiText.read(file)));
            }
        }
        assertThat(found).as("put these in org/copydesk/ui/messages.properties and use Phrase.of(key, args…)").isEmpty();
    }

    @Test
    void theReviewScanCatchesWordsInExceptionsAndOutcomes() {
        String source = String.join("\n",
                "throw new IllegalArgumentException(\"There is no desk '\" + id + \"'.\");",
                "return new DecisionOutcome.Refused(\"Say why the article is rejected.\");",
                "throw new OverCapacityException(name + \" already holds \" + held",
                "        + \" articles.\");",
                "throw new IllegalArgumentException(Phrase.of(\"review.newsroom.noDesk\", id).text());",
                "throw new IllegalStateException(\"a bug: two rows changed\");",
                "log.info(\"Released {} expired lease(s)\", n);");
        assertThat(UiText.hardCodedReviewText("X.java", source)).containsExactly(
                "X.java:1: There is no desk '",
                "X.java:2: Say why the article is rejected.",
                "X.java:3:  already holds ",
                "X.java:4:  articles.");
    }

    @Test
    void theScanCatchesWordsInEachKindOfCall() {
        String source = String.join("\n",
                "Label a = new Label(\"Select an article\");",
                "b.setTooltip(new Tooltip(\"Reload now (F5)\"));",
                "c.setAccessibleText(\"Dismiss\");",
                "notices.post(Notice.Kind.INFO, \"Gave back \" + title);",
                "error.set(\"Give a reason: \" + who",
                "        + \" will see it.\");",
                "table.setPlaceholder(muted(\"No lease to group.\"));",
                "Label ok = new Label(Messages.text(\"editor.submit\"));",
                "Label glyph = new Label(\"\\u2014\");",
                "d.setId(\"no-words-here\");",
                "// new Label(\"a comment\")");
        assertThat(UiText.hardCodedText("X.java", source)).containsExactly(
                "X.java:1: Select an article",
                "X.java:2: Reload now (F5)",
                "X.java:3: Dismiss",
                "X.java:4: Gave back ",
                "X.java:5: Give a reason: ",
                "X.java:6:  will see it.",
                "X.java:7: No lease to group.");
    }
}
