package io.blockscope.server.storefile;

import static io.blockscope.server.storefile.TestStoreFiles.absentRow;
import static io.blockscope.server.storefile.TestStoreFiles.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.CellComparator;
import io.blockscope.server.cell.Cells;
import io.blockscope.server.cell.KeyValueCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many cells through the writer and back through the reader, with every kind of block source. */
class StoreFileRoundTripTest {

    private static final int ROWS = 3000;

    @TempDir
    static Path dir;

    static List<ArrayCell> cells;
    static StoreFileInfo written;
    static StoreFileReader reader;

    @BeforeAll
    static void writeFile() throws IOException {
        cells = TestStoreFiles.cells(ROWS, 250, 11);
        Path path = dir.resolve("round-trip.sf");
        written = TestStoreFiles.write(path, cells, TestStoreFiles.small(path));
        reader = StoreFileReader.open(path);
    }

    @AfterAll
    static void closeReader() throws IOException {
        reader.close();
    }

    @Test
    void trailerDescribesTheFile() {
        StoreFileInfo info = reader.info();
        assertEquals(written, info, "what the writer reported is what the reader finds");
        assertEquals(cells.size(), info.cellCount());
        assertEquals(ROWS, info.rowCount());
        assertTrue(info.dataBlockCount() > 100, "many data blocks: " + info);
        assertTrue(info.leafIndexBlockCount() > 10, "a real two-level index: " + info);
        assertTrue(info.bloomChunkCount() > 10, "a chunked bloom filter: " + info);
    }

    @Test
    void fullScanReturnsEveryCellInOrder() throws IOException {
        for (BlockSource source : sources()) {
            List<Cell> read = new ArrayList<>();
            try (StoreFileScanner scanner = new StoreFileScanner(reader, source)) {
                for (Cell c = scanner.next(); c != null; c = scanner.next()) {
                    read.add(c);
                }
                assertEquals(cells.size(), read.size(), source.toString());
                for (int i = 0; i < cells.size(); i++) {
                    assertTrue(Cells.equals(cells.get(i), read.get(i)), "cell " + i + " via " + source);
                    assertEquals(KeyValueCodec.checksum(cells.get(i)), KeyValueCodec.checksum(read.get(i)));
                }
                assertNull(scanner.next(), "stays at the end");
            }
        }
    }

    @Test
    void cellKindsFollowTheBlockMemory() throws IOException {
        assertAllCells(reader.uncachedBlocks(), ArrayCell.class, "exclusive heap blocks: zero-copy ArrayCells");
        assertAllCells(
                new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), false),
                BufferedKeyValue.class,
                "shared direct blocks: BufferedKeyValues");
        int copies = 0;
        int total = 0;
        try (StoreFileScanner scanner =
                new StoreFileScanner(reader, new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), true))) {
            for (Cell c = scanner.next(); c != null; c = scanner.next()) {
                total++;
                copies += c instanceof ArrayCell ? 1 : 0;
            }
        }
        assertTrue(
                copies > 0 && copies <= reader.info().dataBlockCount(),
                "only cells across a buffer boundary are copied, at most one per block: " + copies + " of " + total);
    }

    @Test
    void seekFindsEveryRowAndTheNextRowAfterAnAbsentOne() throws IOException {
        BlockSource source = new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), true);
        List<Integer> rowStarts = rowStarts();
        try (StoreFileScanner scanner = new StoreFileScanner(reader, source)) {
            for (int r = 0; r < ROWS; r += 7) {
                assertTrue(scanner.seek(row(2 * r)));
                Cell first = scanner.next();
                assertTrue(
                        Cells.equals(cells.get(rowStarts.get(r)), first), "first cell of row " + r + ", got " + first);
                int end = r + 1 < ROWS ? rowStarts.get(r + 1) : cells.size();
                for (int i = rowStarts.get(r) + 1; i < end; i++) {
                    assertTrue(Cells.equals(cells.get(i), scanner.next()), "cell " + i + " of row " + r);
                }

                assertTrue(
                        scanner.seek(row(2 * r - 1 < 0 ? 0 : 2 * r - 1)),
                        "an absent row seeks to the next present one");
                assertTrue(CellComparator.matchingRow(scanner.next(), row(2 * r)));
            }
            // Backwards seeks work too.
            assertTrue(scanner.seek(row(0)));
            assertTrue(Cells.equals(cells.get(0), scanner.next()));
            assertFalse(scanner.seek(absentRow(2 * ROWS)), "past the last row");
            assertNull(scanner.next());
        }
    }

    @Test
    void wideRowsThatSpanSeveralBlocksAreReadWhole() throws IOException {
        List<Integer> rowStarts = rowStarts();
        int wideRows = 0;
        for (int r = 0; r < ROWS - 1; r++) {
            int count = rowStarts.get(r + 1) - rowStarts.get(r);
            if (count < 40) {
                continue;
            }
            wideRows++;
            for (BlockSource source : sources()) {
                try (StoreFileScanner scanner = new StoreFileScanner(reader, source)) {
                    assertTrue(scanner.seek(row(2 * r)));
                    for (int i = 0; i < count; i++) {
                        Cell c = scanner.next();
                        assertTrue(Cells.equals(cells.get(rowStarts.get(r) + i), c), "wide row " + r + " cell " + i);
                    }
                    assertFalse(CellComparator.matchingRow(scanner.next(), row(2 * r)));
                    assertTrue(scanner.heldBlockCount() >= 3, "a 16 KB row holds several 4 KB blocks");
                }
            }
        }
        assertEquals(ROWS / 250, wideRows);
    }

    @Test
    void bloomHasNoFalseNegativesAndASaneFalsePositiveRate() throws IOException {
        BlockSource source = reader.uncachedBlocks();
        for (int r = 0; r < ROWS; r++) {
            assertTrue(reader.mightContainRow(row(2 * r), source), "row " + r + " is in the file");
        }
        int falsePositives = 0;
        int probes = 0;
        for (int r = 0; r < ROWS; r++) {
            for (byte[] absent :
                    new byte[][] {row(2 * r + 1), absentRow(2 * r), (new String(row(2 * r)) + "x").getBytes()}) {
                probes++;
                falsePositives += reader.mightContainRow(absent, source) ? 1 : 0;
            }
        }
        double rate = (double) falsePositives / probes;
        assertTrue(rate > 0.001 && rate < 0.03, "false-positive rate " + rate + " for a 1% target");
        assertFalse(reader.mightContainRow("a".getBytes(), source), "before the first row");
    }

    @Test
    void everyLookupGivesBackTheBlocksItTook() throws IOException {
        TestStoreFiles.CountingSource counting = new TestStoreFiles.CountingSource(reader.uncachedBlocks());
        reader.mightContainRow(row(10), counting);
        reader.dataBlockOffsetFor(row(10), counting);
        assertEquals(0, counting.outstandingReferences());
        assertEquals(1, counting.gets(BlockType.BLOOM));
        assertEquals(1, counting.gets(BlockType.INDEX));

        StoreFileScanner scanner = new StoreFileScanner(reader, counting);
        scanner.seek(row(100));
        for (int i = 0; i < 200; i++) {
            scanner.next();
        }
        assertEquals(scanner.heldBlockCount(), counting.outstandingReferences(), "held until close");
        assertTrue(scanner.heldBlockCount() > 1);
        scanner.close();
        assertEquals(0, counting.outstandingReferences());
        scanner.close();
        assertEquals(0, counting.outstandingReferences(), "close is idempotent");

        // A seek that lands past the end of its first block gives that block back at once.
        try (StoreFileScanner s = new StoreFileScanner(reader, counting)) {
            for (int r = 0; r < ROWS; r += 13) {
                s.seek(row(2 * r));
            }
            assertTrue(
                    s.heldBlockCount() <= 1,
                    "nothing returned from passed blocks, so nothing held: " + s.heldBlockCount());
        }
        assertEquals(0, counting.outstandingReferences());
    }

    @Test
    void dataBlocksCloseOnceTheyReachTheTarget() throws IOException {
        int maxCell = cells.stream().mapToInt(ArrayCell::serializedLength).max().orElseThrow();
        long offset = reader.firstDataBlockOffset();
        int blocks = 0;
        while (offset >= 0) {
            Block block = reader.readBlock(offset, BlockType.DATA);
            blocks++;
            long next = reader.nextDataBlockOffset(offset, block);
            if (next >= 0) {
                assertTrue(
                        block.length() >= 4096 && block.length() < 4096 + maxCell,
                        "block at " + offset + " has " + block.length() + " bytes");
            }
            offset = next;
        }
        assertEquals(reader.info().dataBlockCount(), blocks);
    }

    @Test
    void defaultOptionsWriteSixtyFourKilobyteBlocks(@TempDir Path tmp) throws IOException {
        List<ArrayCell> some = TestStoreFiles.cells(2000, 0, 5);
        long bytes = some.stream().mapToLong(ArrayCell::serializedLength).sum();
        Path path = tmp.resolve("defaults.sf");
        StoreFileInfo info = TestStoreFiles.write(path, some, StoreFileWriter.builder(path));
        assertEquals(bytes / StoreFileWriter.DEFAULT_DATA_BLOCK_SIZE + 1, info.dataBlockCount(), info.toString());
        assertEquals(1, info.leafIndexBlockCount());
        try (StoreFileReader r = StoreFileReader.open(path);
                StoreFileScanner s = new StoreFileScanner(r, r.uncachedBlocks())) {
            int n = 0;
            for (Cell c = s.next(); c != null; c = s.next()) {
                assertTrue(Cells.equals(some.get(n++), c));
            }
            assertEquals(some.size(), n);
        }
    }

    @Test
    void anEmptyFileHasNothingToFind(@TempDir Path tmp) throws IOException {
        Path path = tmp.resolve("empty.sf");
        StoreFileInfo info = TestStoreFiles.write(path, List.of(), StoreFileWriter.builder(path));
        assertEquals(0, info.cellCount());
        try (StoreFileReader r = StoreFileReader.open(path);
                StoreFileScanner s = new StoreFileScanner(r, r.uncachedBlocks())) {
            assertNull(s.next());
            assertFalse(s.seek(row(1)));
            assertFalse(r.mightContainRow(row(1), r.uncachedBlocks()));
            assertEquals(-1, r.dataBlockOffsetFor(row(1), r.uncachedBlocks()));
        }
    }

    @Test
    void bufferBackedCellsFromOneFileLoadIntoAnother(@TempDir Path tmp) throws IOException {
        Path copy = tmp.resolve("copy.sf");
        try (StoreFileScanner s = new StoreFileScanner(
                        reader, new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), true));
                StoreFileWriter w = StoreFileWriter.builder(copy).open()) {
            for (Cell c = s.next(); c != null; c = s.next()) {
                w.append(c);
            }
            assertEquals(written.cellCount(), w.finish().cellCount());
        }
        try (StoreFileReader r = StoreFileReader.open(copy);
                StoreFileScanner s = new StoreFileScanner(r, r.uncachedBlocks())) {
            for (ArrayCell expected : cells) {
                assertTrue(Cells.equals(expected, s.next()));
            }
        }
    }

    private static void assertAllCells(BlockSource source, Class<?> kind, String why) throws IOException {
        try (StoreFileScanner scanner = new StoreFileScanner(reader, source)) {
            for (Cell c = scanner.next(); c != null; c = scanner.next()) {
                assertInstanceOf(kind, c, why);
            }
        }
    }

    private static List<BlockSource> sources() {
        return List.of(
                reader.uncachedBlocks(),
                new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), false),
                new TestStoreFiles.SharedDirectSource(reader.uncachedBlocks(), true));
    }

    /** Index into {@link #cells} of each row's first cell. */
    private static List<Integer> rowStarts() {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            if (i == 0 || !CellComparator.matchingRows(cells.get(i - 1), cells.get(i))) {
                starts.add(i);
            }
        }
        return starts;
    }
}
