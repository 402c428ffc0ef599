package io.blockscope.server.region;

import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.FilterSpec;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * One range scan: rows in {@code [startRow, stopRow)} (an empty array means the table's first or
 * past its last row), kept or dropped by a filter, and bounded in what one call may return.
 *
 * @param startRow       first row, inclusive; empty for the table's start
 * @param stopRow        row to stop before, exclusive; empty for the table's end
 * @param filter         server-side filter
 * @param maxRows        most rows one call returns; the scan stops after that many and says where to resume
 * @param maxResultBytes a call stops after the row that brings its result to this many bytes
 * @param cellSize       bytes a cell counts against {@code maxResultBytes} (the response encoding's size)
 */
public record ScanSpec(
        byte[] startRow,
        byte[] stopRow,
        FilterSpec filter,
        int maxRows,
        long maxResultBytes,
        ToIntFunction<Cell> cellSize) {

    public ScanSpec {
        Objects.requireNonNull(startRow, "startRow");
        Objects.requireNonNull(stopRow, "stopRow");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(cellSize, "cellSize");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1, got " + maxRows);
        }
        if (maxResultBytes < 1) {
            throw new IllegalArgumentException("maxResultBytes must be at least 1, got " + maxResultBytes);
        }
    }

    /** The same scan, resumed at {@code row}. */
    public ScanSpec resumeAt(byte[] row) {
        return new ScanSpec(row, stopRow, filter, maxRows, maxResultBytes, cellSize);
    }
}
