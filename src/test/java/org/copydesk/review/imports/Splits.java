package org.copydesk.review.imports;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/** Runs bytes through {@link TextFeed} into a splitter and collects the rows it cuts out. */
final class Splits {

    private Splits() {
    }

    static List<RawRecord> of(String text, Function<Consumer<RawRecord>, RecordSplitter> splitter) {
        return of(text.getBytes(StandardCharsets.UTF_8), splitter);
    }

    static List<RawRecord> of(byte[] bytes, Function<Consumer<RawRecord>, RecordSplitter> splitter) {
        List<RawRecord> rows = new ArrayList<>();
        try {
            new TextFeed(new ByteArrayInputStream(bytes), splitter.apply(rows::add)).pump();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    static List<RawRecord> csv(String text) {
        return of(text, sink -> new CsvSplitter(sink, ','));
    }
}
