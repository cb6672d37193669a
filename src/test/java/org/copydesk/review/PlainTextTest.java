package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The database's {@code plain_text}, which every operation runs on what people and other systems
 * type, one character at a time: each control character, DEL, each C1 control and each invisible
 * character that reorders text becomes a space, alone in ordinary text (where MariaDB's shortcut for
 * clean text must not pass it over) and in both modes (notes keep their line feeds and tabs, history
 * lines keep neither); everything else stays as it was.
 */
@ExtendWith(DatabaseExtension.class)
class PlainTextTest {

    /** The characters that become spaces in both modes. */
    private static final List<Integer> REPLACED = replaced();

    private final DSLContext owner;

    PlainTextTest(TestDatabase db) {
        this.owner = db.dsl();
    }

    private static List<Integer> replaced() {
        List<Integer> cps = new ArrayList<>();
        IntStream.rangeClosed(0x00, 0x1F).filter(c -> c != '\t' && c != '\n').forEach(cps::add);
        IntStream.rangeClosed(0x7F, 0x9F).forEach(cps::add);
        cps.add(0x061C);
        cps.add(0x200E);
        cps.add(0x200F);
        IntStream.rangeClosed(0x2028, 0x202E).forEach(cps::add);
        IntStream.rangeClosed(0x2066, 0x2069).forEach(cps::add);
        return cps;
    }

    private String plain(String text, int max, boolean lines) {
        return owner.fetchOne("select plain_text(?, ?, ?)", text, max, lines ? 1 : 0).get(0, String.class);
    }

    @Test
    void eachCharacterThatHidesOrRewritesTextBecomesASpaceAloneInOrdinaryText() {
        List<String> kept = new ArrayList<>();
        for (int cp : REPLACED) {
            String text = "Fine words " + Character.toString(cp) + " more words";
            for (boolean lines : new boolean[] {true, false}) {
                if (!plain(text, 1000, lines).equals("Fine words   more words")) {
                    kept.add(String.format("U+%04X%s", cp, lines ? "" : " (history)"));
                }
            }
        }
        assertThat(kept).as("characters that came through").isEmpty();
    }

    @Test
    void notesKeepTheirLinesAndTabsHistoryLinesKeepNeither() {
        String typed = "First line\r\nsecond\tline\rthird\n";
        assertThat(plain(typed, 1000, true)).isEqualTo("First line\nsecond\tline third\n");
        assertThat(plain(typed, 1000, false)).isEqualTo("First line  second line third ");
    }

    @Test
    void everythingElseStaysAsItWasAndLongTextIsCut() {
        String text = "Zürich, 東京, naïve café — \u00a0\u200b\u3000 \ud83d\ude00 «quotes» ½ ∑ \ufeff end";
        assertThat(plain(text, 1000, true)).isEqualTo(text);
        assertThat(plain(text, 1000, false)).isEqualTo(text);
        assertThat(plain("x".repeat(30), 10, true)).isEqualTo("xxxxxxx...");
        assertThat(plain(null, 10, true)).isNull();
    }
}
