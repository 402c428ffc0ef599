package io.blockscope.server.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.filter.ErrorAfterCellsFilter;
import io.blockscope.server.filter.EvenRowsFilter;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.filter.ValueSampleFilter;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.rpc.CellBlock;
import io.blockscope.server.rpc.ClientCell;
import io.blockscope.server.storefile.StoreFileWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Gets, multi-gets and scans through every deploy and read path return exactly the loaded cells, and leak nothing. */
class RegionReadTest {

    private static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final FilterSpec NONE = FilterSpec.none();

    @TempDir
    Path dir;

    private Tables tables;
    private BlockCache cache;

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of(CacheDeploy.CBC_OFFHEAP, ReadPathMode.ZERO_COPY),
                Arguments.of(CacheDeploy.CBC_OFFHEAP, ReadPathMode.COPY),
                Arguments.of(CacheDeploy.CBC_ONHEAP, ReadPathMode.ZERO_COPY),
                Arguments.of(CacheDeploy.CBC_FILE, ReadPathMode.ZERO_COPY),
                Arguments.of(CacheDeploy.LRU, ReadPathMode.ZERO_COPY),
                Arguments.of(CacheDeploy.META_ONLY, ReadPathMode.ZERO_COPY));
    }

    private Region open(TableSpec spec, CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TestTable.load(dir, spec);
        cache = TestTable.cache(deploy, mode);
        tables = Tables.open(dir, cache);
        return tables.require(spec.name());
    }

    @AfterEach
    void close() {
        if (tables != null) {
            assertEquals(0, tables.outstandingBlockReferences(), "block references leaked");
            tables.close();
        }
        if (cache != null) {
            cache.shutdown();
        }
    }

    private static List<ClientCell> readAndRelease(ReadResult result) {
        try {
            return TestTable.cells(result);
        } finally {
            result.release();
        }
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void everyRowByGetMatchesWhatWasLoaded(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        for (long row = 0; row < spec.rows(); row++) {
            ReadResult result = region.get(TableSpec.rowKey(row), NO_DEADLINE);
            assertEquals(1, result.rowCount());
            assertEquals(1, result.rowsScanned());
            assertEquals(TestTable.expectedRow(spec, row), readAndRelease(result), "row " + row);
            assertEquals(0, tables.outstandingBlockReferences());
        }
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void multiGetReturnsRowsInRequestOrderAndSkipsMissingOnes(CacheDeploy deploy, ReadPathMode mode)
            throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        SplittableRandom random = new SplittableRandom(3);
        for (int round = 0; round < 20; round++) {
            byte[][] keys = new byte[100][];
            List<ClientCell> expected = new ArrayList<>();
            for (int i = 0; i < keys.length; i++) {
                if (i % 10 == 9) {
                    keys[i] = ("missing-" + i).getBytes(StandardCharsets.UTF_8);
                } else {
                    long row = random.nextLong(spec.rows());
                    keys[i] = TableSpec.rowKey(row);
                    expected.addAll(TestTable.expectedRow(spec, row));
                }
            }
            ReadResult result = region.multiGet(keys, keys.length, NO_DEADLINE);
            assertEquals(90, result.rowCount());
            assertEquals(100, result.rowsScanned());
            assertEquals(expected, readAndRelease(result));
        }
        ReadResult beyond = region.get(TableSpec.rowKey(spec.rows() + 5), NO_DEADLINE);
        assertEquals(0, beyond.cellCount());
        beyond.release();
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void scansReturnRangesInOrderAndResumeExactly(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);

        ReadResult all = region.scan(
                new ScanSpec(
                        new byte[0], new byte[0], NONE, Integer.MAX_VALUE, Long.MAX_VALUE, CellBlock::encodedLength),
                NO_DEADLINE);
        assertTrue(all.isComplete());
        assertEquals(spec.rows(), all.rowCount());
        assertEquals(TestTable.expectedRows(spec, 0, spec.rows()), readAndRelease(all));

        // A scan limited to 70 rows per call, continued until complete, sees [100, 1234) exactly once.
        List<ClientCell> pieces = new ArrayList<>();
        ScanSpec limited = new ScanSpec(
                TableSpec.rowKey(100), TableSpec.rowKey(1234), NONE, 70, Long.MAX_VALUE, CellBlock::encodedLength);
        int calls = 0;
        while (true) {
            ReadResult part = region.scan(limited, NO_DEADLINE);
            calls++;
            assertTrue(part.rowCount() <= 70);
            byte[] resume = part.resumeRow();
            pieces.addAll(readAndRelease(part));
            if (resume == null) {
                break;
            }
            limited = limited.resumeAt(resume);
        }
        assertEquals(17, calls);
        assertEquals(TestTable.expectedRows(spec, 100, 1234), pieces);

        // The byte limit stops after the row that reaches it.
        ReadResult small = region.scan(
                new ScanSpec(TableSpec.rowKey(0), new byte[0], NONE, Integer.MAX_VALUE, 1, CellBlock::encodedLength),
                NO_DEADLINE);
        assertEquals(1, small.rowCount());
        assertArrayEquals(TableSpec.rowKey(1), small.resumeRow());
        small.release();
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void filtersDecideOnTheServer(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        ClassLoader loader = getClass().getClassLoader();

        ReadResult none = region.scan(range(300, 1300, FilterSpec.parse("all", loader)), NO_DEADLINE);
        assertEquals(0, none.cellCount());
        assertEquals(1000, none.rowsScanned());
        assertTrue(none.isComplete());
        assertEquals(0, none.heldBlocks(), "a filter-all scan ships no cell, so it must hold no block");
        none.release();

        ValueSampleFilter sample = new ValueSampleFilter(10);
        List<ClientCell> expected = new ArrayList<>();
        for (long row = 300; row < 1300; row++) {
            byte[] first = spec.value(row, 0);
            if (first.length > 0 && sample.keeps(first[0])) {
                expected.addAll(TestTable.expectedRow(spec, row));
            }
        }
        ReadResult tenth = region.scan(range(300, 1300, FilterSpec.parse("10pct", loader)), NO_DEADLINE);
        assertEquals(expected, readAndRelease(tenth));
        assertTrue(
                expected.size() > 150 && expected.size() < 450, "about 10% of 1000 rows x 3 cells: " + expected.size());

        ReadResult column = region.scan(range(0, 50, FilterSpec.parse("qualifier:2", loader)), NO_DEADLINE);
        List<ClientCell> qualifier2 = readAndRelease(column);
        assertEquals(50, qualifier2.size());
        for (int i = 0; i < 50; i++) {
            assertEquals(TestTable.expectedRow(spec, i).get(2), qualifier2.get(i));
        }

        ReadResult custom = region.scan(
                range(0, 40, FilterSpec.parse("class:" + EvenRowsFilter.class.getName(), loader)), NO_DEADLINE);
        assertEquals(20, custom.rowCount());
        assertEquals(TestTable.expectedRow(spec, 38), readAndRelease(custom).subList(19 * 3, 20 * 3));
    }

    /**
     * An {@code Error} in the middle of a scan (a filter that overflows its stack while the cursors
     * and the partial result hold blocks) propagates and gives back every block: releases are in
     * {@code finally}, and no catch of an {@code Error} on the read path skips one. {@link #close}
     * checks again that no reference is left.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void anErrorInAScanGivesEveryBlockBack(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        ClassLoader loader = getClass().getClassLoader();

        FilterSpec midScan = FilterSpec.parse("class:" + ErrorAfterCellsFilter.class.getName(), loader);
        assertThrows(StackOverflowError.class, () -> region.scan(range(0, 500, midScan), NO_DEADLINE));
        assertEquals(
                0, tables.outstandingBlockReferences(), "the cursors' and the partial result's blocks were given back");

        // the region still serves reads
        assertEquals(TestTable.expectedRows(spec, 0, 50), readAndRelease(region.scan(range(0, 50, NONE), NO_DEADLINE)));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void resultsPinTheirBlocksUntilReleased(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        ReadResult result = region.scan(range(0, 500, FilterSpec.none()), NO_DEADLINE);
        assertTrue(result.heldBlocks() > 1, "500 rows span several 4 KB blocks in each of 3 files");
        assertEquals(result.heldBlocks(), tables.outstandingBlockReferences());
        // Eviction of everything must not disturb the pinned cells.
        int evicted = 0;
        for (Region r : tables.regions()) {
            for (String file : r.manifest().storeFiles()) {
                evicted += cache.evictBlocksByFile(
                        r.directory().resolve(file).toAbsolutePath().normalize().toString());
            }
        }
        assertTrue(evicted > 0, "the table's blocks were cached, so evicting its files evicts something");
        assertEquals(TestTable.expectedRows(spec, 0, 500), TestTable.cells(result));
        result.release();
        result.release(); // idempotent
        assertEquals(0, tables.outstandingBlockReferences());
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void theNewestVersionOfAColumnWinsAcrossFiles(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        Path table = Files.createDirectories(dir.resolve("versions"));
        byte[] family = TableSpec.family();
        byte[] q = TableSpec.qualifier(0);
        try (StoreFileWriter older = StoreFileWriter.builder(table.resolve("a"))
                        .dataBlockSize(1024)
                        .open();
                StoreFileWriter newer = StoreFileWriter.builder(table.resolve("b"))
                        .dataBlockSize(1024)
                        .open()) {
            for (long row = 0; row < 100; row++) {
                older.append(ArrayCell.of(
                        TableSpec.rowKey(row), family, q, 1, ("old" + row).getBytes(StandardCharsets.UTF_8)));
                if (row % 2 == 0) {
                    newer.append(ArrayCell.of(
                            TableSpec.rowKey(row), family, q, 2, ("new" + row).getBytes(StandardCharsets.UTF_8)));
                }
            }
            older.finish();
            newer.finish();
        }
        TableSpec spec = new TableSpec("versions", 100, 1, 1, ValueDistribution.FIXED, 1, 1);
        new TableManifest(spec, 1024, List.of("a", "b")).write(table);
        cache = TestTable.cache(deploy, mode);
        tables = Tables.open(dir, cache);
        Region region = tables.require("versions");
        List<ClientCell> cells = readAndRelease(region.scan(range(0, 100, FilterSpec.none()), NO_DEADLINE));
        assertEquals(100, cells.size());
        for (int row = 0; row < 100; row++) {
            String want = (row % 2 == 0 ? "new" : "old") + row;
            assertEquals(want, new String(cells.get(row).value(), StandardCharsets.UTF_8));
        }
        List<ClientCell> got = readAndRelease(region.get(TableSpec.rowKey(42), NO_DEADLINE));
        assertEquals(
                List.of(new ClientCell(TableSpec.rowKey(42), family, q, 2, "new42".getBytes(StandardCharsets.UTF_8))),
                got);
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void aMultiGetPastItsDeadlineFailsAndGivesEverythingBack(CacheDeploy deploy, ReadPathMode mode) throws IOException {
        TableSpec spec = TestTable.smallSpec();
        Region region = open(spec, deploy, mode);
        byte[][] keys = new byte[200][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = TableSpec.rowKey(i * 7L);
        }
        assertThrows(RegionTimeoutException.class, () -> region.multiGet(keys, keys.length, System.nanoTime() - 1));
        assertEquals(0, tables.outstandingBlockReferences());
        // A scan past its deadline returns what it has, with a resume row.
        ReadResult partial = region.scan(range(0, 2000, FilterSpec.none()), System.nanoTime() - 1);
        assertEquals(63, partial.rowCount());
        assertArrayEquals(TableSpec.rowKey(63), partial.resumeRow());
        partial.release();
    }

    private static ScanSpec range(long from, long to, FilterSpec filter) {
        return new ScanSpec(
                TableSpec.rowKey(from),
                TableSpec.rowKey(to),
                filter,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                CellBlock::encodedLength);
    }
}
