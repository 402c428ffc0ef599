package io.blockscope.server.filter;

import io.blockscope.server.cell.Cell;

/**
 * Decides on the server which cells of a scan reach the client.
 *
 * <p>A scan creates its own instance and offers it every cell in row order, so implementations may
 * keep per-row state and need not be thread-safe. Cells from the block cache are usually
 * {@link io.blockscope.server.cell.ByteBufferCell}s: read them through the buffer accessors. A
 * filter that calls {@code getValueArray()} and friends still works, but copies every component it
 * touches onto the heap, which is exactly the regression blockscope is built to expose.
 *
 * <p>A class named in a {@code class:<fully.qualified.Name>} filter spec must implement this
 * interface and have a public no-argument constructor.
 */
public interface Filter {

    /** What the scan does with one cell. */
    enum Decision {
        /** The cell goes into the result. */
        INCLUDE,
        /** The cell is dropped; the next cell of the row is offered. */
        SKIP,
        /** The cell and the rest of its row are dropped (cells already included stay). */
        NEXT_ROW
    }

    /** A new row starts; per-row state of the previous row can be forgotten. */
    default void startRow() {}

    Decision filterCell(Cell cell);

    /** Called after a row's last offered cell: true drops the cells of the row included so far. */
    default boolean filterRow() {
        return false;
    }
}
