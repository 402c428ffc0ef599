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
 * @param maxRowsExamined  most rows one call reads, returned or filtered out; then it says where to resume
 * @param maxBytesExamined most cell bytes (by {@code cellSize}) one call reads, returned or filtered out;
 *                         then it says where to resume, and a first row larger than this alone fails
 *                         with {@link ScanLimitException}
 */
public record ScanSpec(
        byte[] startRow,
        byte[] stopRow,
        FilterSpec filter,
        int maxRows,
        long maxResultBytes,
        ToIntFunction<Cell> cellSize,
        long maxRowsExamined,
        long maxBytesExamined) {

    /** A scan bounded only by what it returns (for the operator's own tools and tests). */
    public ScanSpec(
            byte[] startRow,
            byte[] stopRow,
            FilterSpec filter,
            int maxRows,
            long maxResultBytes,
            ToIntFunction<Cell> cellSize) {
        this(startRow, stopRow, filter, maxRows, maxResultBytes, cellSize, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public ScanSpec {
        Objects.requireNonNull(startRow, "startRow");
        Objects.requireNonNull(stopRow, "stopRow");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(cellSize, "cellSize");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1, got " + maxRows);
        }
        if (maxRowsExamined < 1 || maxBytesExamined < 1) {
            throw new IllegalArgumentException("maxRowsExamined and maxBytesExamined must be at least 1");
        }
        if (maxResultBytes < 1) {
            throw new IllegalArgumentException("maxResultBytes must be at least 1, got " + maxResultBytes);
        }
    }

    /** The same scan, resumed at {@code row}. */
    public ScanSpec resumeAt(byte[] row) {
        return new ScanSpec(row, stopRow, filter, maxRows, maxResultBytes, cellSize, maxRowsExamined, maxBytesExamined);
    }
}
