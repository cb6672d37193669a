package org.copydesk.bench;

import java.util.List;

/**
 * What one owner of a benchmark cell does, over and over: claim a batch, then complete each item.
 * Called from the owner's own thread only; {@link #close()} after that thread ended.
 *
 * @param <T> what a claim hands out (a lease, an article the editor holds, a row id with its token)
 */
interface OwnerLoop<T> extends AutoCloseable {

    List<T> claim();

    /** True when the item was claimed-and-decided; false when it was found lost (counted apart). */
    boolean complete(T item);

    @Override
    default void close() {
    }
}
