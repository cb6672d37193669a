package org.copydesk.review.imports;

import java.util.function.Consumer;

/** NDJSON: every physical line is a row; blank lines are skipped. */
final class JsonLinesSplitter extends RecordSplitter {

    JsonLinesSplitter(Consumer<RawRecord> sink) {
        super(sink);
    }

    @Override
    void accept(char c) {
        if (c == '\n' || c == '\r') {
            endLine();
            return;
        }
        if (!inRecord) {
            startRecord();
        }
        text.append(c);
    }

    @Override
    void end() {
        endLine();
    }

    private void endLine() {
        if (!inRecord) {
            return;
        }
        if (text.isBlank()) {
            discard();
        } else {
            emit(null);
        }
    }
}
