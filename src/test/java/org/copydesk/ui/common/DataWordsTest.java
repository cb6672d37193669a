package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Stored codes get the bundle's words on screen; a code this version does not know shows as stored. */
class DataWordsTest {

    @Test
    void knownCodesSpeakTheBundlesWords() {
        assertThat(DataWords.action("force_release")).isEqualTo("force release");
        assertThat(DataWords.action("send_back")).isEqualTo("send back");
        assertThat(DataWords.status("awaiting_writer")).isEqualTo("waiting for the writer");
        assertThat(DataWords.role("supervisor")).isEqualTo("supervisor");
    }

    @Test
    void aCodeFromANewerVersionShowsAsStored() {
        assertThat(DataWords.action("split_article")).isEqualTo("split article");
        assertThat(DataWords.status("archived")).isEqualTo("archived");
        assertThat(DataWords.role("auditor")).isEqualTo("auditor");
    }
}
