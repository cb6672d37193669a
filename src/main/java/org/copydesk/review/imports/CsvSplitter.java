package org.copydesk.review.imports;

import java.util.function.Consumer;

/**
 * CSV records as RFC 4180 ends them: at a line end outside a quoted field, so a quoted field may
 * span lines and the record starts on its first line. A quote opens a quoted field only at the
 * start of a field, as commons-csv reads it. Blank lines are skipped. An unclosed quote swallows
 * the lines after it, up to the next quote or the end of the file, into one bad row.
 */
final class CsvSplitter extends RecordSplitter {

    private enum State { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED }

    private final char delimiter;
    private State state = State.FIELD_START;

    CsvSplitter(Consumer<RawRecord> sink, char delimiter) {
        super(sink);
        this.delimiter = delimiter;
    }

    @Override
    void accept(char c) {
        boolean lineEnd = c == '\n' || c == '\r';
        if (!inRecord) {
            if (lineEnd) {
                return;
            }
            startRecord();
            state = State.FIELD_START;
        }
        switch (state) {
            case FIELD_START, UNQUOTED, QUOTE_IN_QUOTED -> {
                if (lineEnd) {
                    endRecord();
                    return;
                }
                if (c == delimiter) {
                    state = State.FIELD_START;
                } else if (c == '"') {
                    state = state == State.FIELD_START ? State.QUOTED
                            : state == State.QUOTE_IN_QUOTED ? State.QUOTED : State.UNQUOTED;
                } else {
                    state = State.UNQUOTED;
                }
            }
            case QUOTED -> {
                if (c == '"') {
                    state = State.QUOTE_IN_QUOTED;
                }
            }
        }
        text.append(c);
    }

    private void endRecord() {
        if (text.isBlank()) {
            discard();
        } else {
            emit(null);
        }
    }

    @Override
    void end() {
        if (!inRecord) {
            return;
        }
        if (state == State.QUOTED) {
            emit("the file ends inside a quoted field: a \" opened in this row is never closed");
        } else {
            endRecord();
        }
    }
}
