package io.blockscope.server.region;

import io.blockscope.server.cell.Cell;
import java.util.Arrays;

/**
 * What one get, multi-get or scan call returns: the cells, grouped by row in row order, and the
 * lease on the blocks those cells point into.
 *
 * <p>The cells are views into cached blocks, valid until {@link #release()}. Whoever writes them out
 * (the RPC tier, after the response is on the wire) must call {@code release()} exactly once
 * logically; extra calls are harmless.
 */
public final class ReadResult {

    private Cell[] cells = new Cell[16];
    private int cellCount;
    /** rowStarts[r] is the index of row r's first cell; rowStarts[rowCount] == cellCount. */
    private int[] rowStarts = new int[9];

    private int rowCount;
    private long rowsScanned;
    private long resultBytes;
    private byte[] resumeRow;
    private final BlockLease lease;

    ReadResult(BlockLease lease) {
        this.lease = lease;
    }

    public int cellCount() {
        return cellCount;
    }

    public Cell cell(int index) {
        if (index >= cellCount) {
            throw new IndexOutOfBoundsException("cell " + index + " of " + cellCount);
        }
        return cells[index];
    }

    /** Rows with at least one cell in this result. */
    public int rowCount() {
        return rowCount;
    }

    /** Index of the first cell of row {@code row} (0-based); {@code rowStart(rowCount())} is the cell count. */
    public int rowStart(int row) {
        if (row > rowCount) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rowCount);
        }
        return row == rowCount ? cellCount : rowStarts[row];
    }

    /** Rows the server read to produce this result, returned or filtered out. */
    public long rowsScanned() {
        return rowsScanned;
    }

    /** Sum of the result's cell sizes, as measured by the scan's cell size function (0 for gets). */
    public long resultBytes() {
        return resultBytes;
    }

    /** For a scan that stopped at a limit: the row to resume at; null when the scan is complete. */
    public byte[] resumeRow() {
        return resumeRow == null ? null : resumeRow.clone();
    }

    public boolean isComplete() {
        return resumeRow == null;
    }

    /** Blocks held for this result's cells. */
    public int heldBlocks() {
        return lease.size();
    }

    /** The "shipped" call: gives back every block this result's cells point into. Idempotent. */
    public void release() {
        lease.release();
    }

    // ---- filled in by the region's scanners

    void startRow() {
        if (rowCount + 1 >= rowStarts.length) {
            rowStarts = Arrays.copyOf(rowStarts, rowStarts.length * 2);
        }
        rowStarts[rowCount++] = cellCount;
    }

    /** Drops the row started last (a row whose cells were all filtered out, or dropped by filterRow). */
    void discardRow() {
        int start = rowStarts[--rowCount];
        Arrays.fill(cells, start, cellCount, null);
        cellCount = start;
    }

    /** True when the row started last has no cells yet. */
    boolean currentRowEmpty() {
        return rowStarts[rowCount - 1] == cellCount;
    }

    void add(Cell cell) {
        if (cellCount == cells.length) {
            cells = Arrays.copyOf(cells, cells.length * 2);
        }
        cells[cellCount++] = cell;
    }

    void addResultBytes(long bytes) {
        resultBytes += bytes;
    }

    void rowsScanned(long rows) {
        rowsScanned += rows;
    }

    void resumeRow(byte[] row) {
        resumeRow = row;
    }

    BlockLease lease() {
        return lease;
    }
}
