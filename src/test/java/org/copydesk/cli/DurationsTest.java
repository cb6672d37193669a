package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void aSentenceSaysADurationInTheUnitItWasMostLikelyTypedIn() {
        assertThat(Durations.inWords(Duration.ofSeconds(5))).isEqualTo("5 s");
        assertThat(Durations.inWords(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(Durations.inWords(Duration.ofMinutes(2))).isEqualTo("2 min");
        assertThat(Durations.inWords(Duration.ofMinutes(150))).isEqualTo("150 min");
        assertThat(Durations.inWords(Duration.ofHours(2))).isEqualTo("2 h");
        assertThat(Durations.inWords(Duration.ofHours(24))).isEqualTo("24 h");
        assertThat(Durations.inWords(Duration.ofDays(30))).isEqualTo("30 d");
        assertThat(Durations.inWords(Duration.ofMillis(250))).isEqualTo("250 ms");
    }

    @Test
    void whatATableShowsStaysCompact() {
        assertThat(Durations.format(Duration.ofSeconds(45))).isEqualTo("0m45s");
        assertThat(Durations.format(Duration.ofMinutes(150))).isEqualTo("2h30m");
    }

    @Test
    void whatIsTypedIsReadBack() {
        for (String typed : new String[] {"5s", "90s", "15m", "2h", "30d"}) {
            assertThat(Durations.inWords(Durations.parse(typed)).replace(" ", "").replace("min", "m")).isEqualTo(typed);
        }
    }
}
