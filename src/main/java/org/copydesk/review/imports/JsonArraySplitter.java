package org.copydesk.review.imports;

import java.util.function.Consumer;

/**
 * A top-level JSON array: every element is a row, found by counting brackets outside strings.
 * The elements themselves are parsed later, one by one, so a syntax error stays inside its element.
 * A quote or bracket that is never closed does swallow the elements after it into one bad row,
 * up to the end of the file; JSON lines are the sturdier format for hand-made files.
 */
final class JsonArraySplitter extends RecordSplitter {

    private enum State { BEFORE_ARRAY, BETWEEN_ELEMENTS, IN_ELEMENT, AFTER_ARRAY, TRAILING_TEXT }

    private final Consumer<String> warnings;
    private State state = State.BEFORE_ARRAY;
    private int depth;
    private boolean inString;
    private boolean escaped;

    JsonArraySplitter(Consumer<RawRecord> sink, Consumer<String> warnings) {
        super(sink);
        this.warnings = warnings;
    }

    @Override
    void accept(char c) {
        switch (state) {
            case BEFORE_ARRAY -> {
                if (c == '[') {
                    state = State.BETWEEN_ELEMENTS;
                } else if (!isJsonWhitespace(c)) {
                    startTrailing(c);
                }
            }
            case BETWEEN_ELEMENTS -> {
                if (c == ']') {
                    state = State.AFTER_ARRAY;
                } else if (c != ',' && !isJsonWhitespace(c)) {
                    // A stray comma loses no data, so it is passed over.
                    startRecord();
                    depth = 0;
                    inString = false;
                    escaped = false;
                    state = State.IN_ELEMENT;
                    element(c);
                }
            }
            case IN_ELEMENT -> element(c);
            case AFTER_ARRAY -> {
                if (!isJsonWhitespace(c)) {
                    startTrailing(c);
                }
            }
            case TRAILING_TEXT -> text.append(c);
        }
    }

    private void element(char c) {
        if (inString) {
            text.append(c);
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            return;
        }
        if (depth == 0 && (c == ',' || c == ']')) {
            emit(null);
            state = c == ',' ? State.BETWEEN_ELEMENTS : State.AFTER_ARRAY;
            return;
        }
        text.append(c);
        switch (c) {
            case '"' -> inString = true;
            case '{', '[' -> depth++;
            case '}', ']' -> depth = Math.max(0, depth - 1);
            default -> { }
        }
    }

    private void startTrailing(char c) {
        startRecord();
        state = State.TRAILING_TEXT;
        text.append(c);
    }

    @Override
    void end() {
        switch (state) {
            case IN_ELEMENT -> emit(inString
                    ? "the file ends inside a string in this object (the file was cut off)"
                    : depth > 0 ? "the file ends inside this object (the file was cut off)"
                    : "the file ends after this element without closing the array with ] (the file was cut off)");
            case TRAILING_TEXT -> emit("text outside the top-level array [...]");
            case BETWEEN_ELEMENTS -> warnings.accept("the array is not closed with ]: the file may have been cut off");
            default -> { }
        }
    }
}
