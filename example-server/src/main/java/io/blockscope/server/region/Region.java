package io.blockscope.server.region;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.filter.Filter;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One table: the set of its store files, read through the block cache.
 *
 * <p>Gets, multi-gets and scans merge the files with a heap of {@link FileCursor}s and return a
 * {@link ReadResult} whose cells point straight into cached blocks (zero-copy mode) or into the
 * heap copies the cache made (copy mode). Cell components are only ever read through the
 * {@link io.blockscope.server.cell.ByteBufferCell} buffer accessors here, so the read path itself
 * never copies a component onto the heap.
 *
 * <p>Within a row, only the newest version of each column is returned (a column present in two
 * files counts once). Thread-safe: every call has its own cursors.
 */
public final class Region implements AutoCloseable {

    /** How often (in rows) a scan or multi-get looks at the clock. */
    private static final int DEADLINE_CHECK_ROWS = 64;

    private final Path directory;
    private final TableManifest manifest;
    private final List<StoreFileReader> files;
    private final CachedBlockSource source;

    private Region(Path directory, TableManifest manifest, List<StoreFileReader> files, CachedBlockSource source) {
        this.directory = directory;
        this.manifest = manifest;
        this.files = List.copyOf(files);
        this.source = source;
    }

    /** Opens the table in {@code tableDirectory}: its manifest and every store file it lists. */
    public static Region open(Path tableDirectory, CachedBlockSource source) throws IOException {
        TableManifest manifest = TableManifest.read(tableDirectory);
        List<StoreFileReader> readers = new ArrayList<>();
        try {
            for (String name : manifest.storeFiles()) {
                StoreFileReader reader = StoreFileReader.open(tableDirectory.resolve(name));
                readers.add(reader);
                source.register(reader);
            }
        } catch (IOException | RuntimeException e) {
            for (StoreFileReader r : readers) {
                source.unregister(r);
                r.close();
            }
            throw e;
        }
        return new Region(tableDirectory, manifest, readers, source);
    }

    public String name() {
        return manifest.spec().name();
    }

    public Path directory() {
        return directory;
    }

    public TableManifest manifest() {
        return manifest;
    }

    /** Data blocks in all the table's files. */
    public long dataBlockCount() {
        long count = 0;
        for (StoreFileReader f : files) {
            count += f.info().dataBlockCount();
        }
        return count;
    }

    /** Bytes of the table's data sections (block headers included). */
    public long dataBytes() {
        long bytes = 0;
        for (StoreFileReader f : files) {
            bytes += f.info().dataSectionBytes();
        }
        return bytes;
    }

    /** The cells of one row (none when it does not exist). */
    public ReadResult get(byte[] row, long deadlineNanos) throws IOException {
        return multiGet(new byte[][] {row}, 1, deadlineNanos);
    }

    /**
     * The cells of {@code rows[0..count)}, row by row in the order asked (rows that do not exist are
     * left out).
     *
     * @param deadlineNanos a {@link System#nanoTime()} after which the call gives up, or Long.MAX_VALUE
     * @throws RegionTimeoutException past the deadline; every block is given back first
     */
    public ReadResult multiGet(byte[][] rows, int count, long deadlineNanos) throws IOException {
        ReadResult result = new ReadResult(new BlockLease(source));
        FileCursor[] cursors = new FileCursor[files.size()];
        CursorHeap heap = new CursorHeap(files.size());
        RowScratch scratch = new RowScratch();
        RowScratch wanted = new RowScratch();
        boolean done = false;
        try {
            for (int i = 0; i < count; i++) {
                if (i % DEADLINE_CHECK_ROWS == DEADLINE_CHECK_ROWS - 1 && System.nanoTime() - deadlineNanos > 0) {
                    throw new RegionTimeoutException("multiget of " + count + " rows ran past its deadline after " + i
                            + " rows; ask for fewer rows per request");
                }
                readRow(rows[i], wanted, cursors, heap, scratch, result);
                result.rowsScanned(1);
            }
            done = true;
        } finally {
            // Every path, an Error included: cursors let go of their blocks, and a failed read's result
            // gives back what it holds, so no reference outlives the call.
            closeAll(cursors);
            if (!done) {
                result.release();
            }
        }
        return result;
    }

    private void readRow(
            byte[] row, RowScratch wanted, FileCursor[] cursors, CursorHeap heap, RowScratch scratch, ReadResult result)
            throws IOException {
        wanted.setRow(row, 0, row.length);
        for (int f = 0; f < cursors.length; f++) {
            StoreFileReader file = files.get(f);
            if (!file.mightContainRow(row, source)) {
                continue;
            }
            FileCursor cursor = cursors[f];
            if (cursor == null) {
                cursor = cursors[f] = new FileCursor(file, source, result.lease());
            }
            if (cursor.seek(row) && cursor.row().sameRow(wanted)) {
                heap.add(cursor);
            }
        }
        if (heap.isEmpty()) {
            return;
        }
        result.startRow();
        scratch.setRow(heap.top().row());
        boolean first = true;
        while (!heap.isEmpty()) {
            FileCursor top = heap.top();
            Cell cell = top.peek();
            if (!first && !scratch.sameRow(top.row())) {
                break;
            }
            first = false;
            result.add(cell);
            top.shipCurrent();
            heap.advanceTopPastColumn();
        }
        // Cursors stay where they are (their blocks stay held) for the next row of the batch.
        heap.clear();
        if (result.currentRowEmpty()) {
            result.discardRow();
        }
    }

    /**
     * Scans rows {@code [spec.startRow(), spec.stopRow())} through the spec's filter. Stops early,
     * with {@link ReadResult#resumeRow()} set, after {@code maxRows} returned rows, after the row
     * that brings the result to {@code maxResultBytes}, or at the deadline (so a slow scan returns
     * what it has instead of failing).
     */
    public ReadResult scan(ScanSpec spec, long deadlineNanos) throws IOException {
        ReadResult result = new ReadResult(new BlockLease(source));
        CursorHeap heap = new CursorHeap(files.size());
        boolean done = false;
        try {
            for (StoreFileReader file : files) {
                FileCursor cursor = new FileCursor(file, source, result.lease());
                cursor.sequential();
                boolean positioned = false;
                try {
                    positioned = spec.startRow().length == 0 ? cursor.seekToFirst() : cursor.seek(spec.startRow());
                } finally {
                    // A seek that throws (a corrupt block) leaves the cursor holding the block it failed
                    // in, and the cursor is in no heap yet: close it here or that reference leaks.
                    if (positioned) {
                        heap.add(cursor);
                    } else {
                        cursor.close();
                    }
                }
            }
            scanRows(spec, deadlineNanos, heap, result);
            done = true;
        } finally {
            heap.closeAll();
            if (!done) {
                result.release();
            }
        }
        return result;
    }

    private static void scanRows(ScanSpec spec, long deadlineNanos, CursorHeap heap, ReadResult result)
            throws IOException {
        Filter filter = spec.filter().newFilter();
        boolean bounded = spec.stopRow().length > 0;
        RowScratch stop = RowScratch.of(spec.stopRow());
        RowScratch scratch = new RowScratch();
        long returned = 0;
        long bytes = 0;
        long scanned = 0;
        long examinedBytes = 0;
        while (!heap.isEmpty()) {
            FileCursor top = heap.top();
            if (bounded && top.row().compareTo(stop) >= 0) {
                break;
            }
            if (returned >= spec.maxRows()
                    || bytes >= spec.maxResultBytes()
                    || scanned >= spec.maxRowsExamined()
                    || examinedBytes >= spec.maxBytesExamined()
                    || (scanned % DEADLINE_CHECK_ROWS == DEADLINE_CHECK_ROWS - 1
                            && System.nanoTime() - deadlineNanos > 0)) {
                result.resumeRow(top.row().toBytes());
                break;
            }
            scratch.setRow(top.row());
            result.startRow();
            if (filter != null) {
                filter.startRow();
            }
            boolean skipRest = false;
            boolean cut = false;
            long rowBytes = 0;
            long rowExamined = 0;
            Cell cell = top.peek();
            do {
                rowExamined += spec.cellSize().applyAsInt(cell);
                if (examinedBytes + rowExamined > spec.maxBytesExamined()) {
                    if (scanned == 0) {
                        throw new ScanLimitException(
                                "row '" + printable(scratch.toBytes()) + "' alone holds more than "
                                        + spec.maxBytesExamined() + " bytes, the most one scan response may read",
                                spec.maxBytesExamined());
                    }
                    cut = true;
                    break;
                }
                if (!skipRest) {
                    Filter.Decision decision = filter == null ? Filter.Decision.INCLUDE : filter.filterCell(cell);
                    if (decision == Filter.Decision.INCLUDE) {
                        result.add(cell);
                        top.shipCurrent();
                        rowBytes += spec.cellSize().applyAsInt(cell);
                    } else if (decision == Filter.Decision.NEXT_ROW) {
                        skipRest = true;
                    }
                }
                heap.advanceTopPastColumn();
                top = heap.top();
                cell = top == null ? null : top.peek();
            } while (cell != null && scratch.sameRow(top.row()));
            if (cut) {
                // The row does not fit what this response may still read: the next one starts with it.
                result.discardRow();
                result.resumeRow(scratch.toBytes());
                break;
            }
            examinedBytes += rowExamined;
            scanned++;
            if (filter != null && filter.filterRow()) {
                result.discardRow();
            } else if (result.currentRowEmpty()) {
                result.discardRow();
            } else {
                returned++;
                bytes += rowBytes;
            }
        }
        result.rowsScanned(scanned);
        result.addResultBytes(bytes);
    }

    /**
     * Reads every data block of the table, and the index and bloom blocks that lead to them, through
     * the cache: afterwards a cache large enough holds the whole table (the seeds' "no i/o" setup).
     */
    public void warm() throws IOException {
        for (StoreFileReader file : files) {
            long offset = file.firstDataBlockOffset();
            while (offset >= 0) {
                BlockCacheKey key = file.keyFor(offset);
                Block block = source.getBlock(key, BlockType.DATA);
                byte[] firstRow;
                long next;
                try {
                    BlockCells cells = new BlockCells(block, key);
                    firstRow = cells.hasNext() ? RowScratch.rowOf(cells.next()) : null;
                    next = file.nextDataBlockOffset(offset, block);
                } finally {
                    source.returnBlock(key, block);
                }
                if (firstRow != null) {
                    file.dataBlockOffsetFor(firstRow, source);
                    file.mightContainRow(firstRow, source);
                }
                offset = next;
            }
        }
    }

    /** A row key for a message: as text when it is printable ASCII, else in hex; at most 64 characters. */
    static String printable(byte[] row) {
        boolean text = true;
        for (byte b : row) {
            text &= b >= 0x20 && b < 0x7f;
        }
        StringBuilder s = new StringBuilder();
        if (text) {
            s.append(new String(row, java.nio.charset.StandardCharsets.US_ASCII));
        } else {
            s.append("hex:");
            for (byte b : row) {
                s.append(String.format("%02x", b & 0xff));
            }
        }
        return s.length() <= 64 ? s.toString() : s.substring(0, 61) + "...";
    }

    private static void closeAll(FileCursor[] cursors) {
        for (FileCursor c : cursors) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** Closes the store files and drops their blocks from the cache. */
    @Override
    public void close() {
        for (StoreFileReader f : files) {
            source.unregister(f);
            try {
                f.close();
            } catch (IOException e) {
                System.err.println("[blockscope] closing " + f.name() + ": " + e);
            }
        }
    }

    @Override
    public String toString() {
        return "Region[" + name() + ", " + files.size() + " store files]";
    }
}
