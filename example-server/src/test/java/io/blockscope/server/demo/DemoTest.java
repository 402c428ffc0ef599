package io.blockscope.server.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.ReadResult;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.ScanSpec;
import io.blockscope.server.region.Tables;
import io.blockscope.server.region.TestTable;
import io.blockscope.server.rpc.CellBlock;
import io.blockscope.server.rpc.ClientCell;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's copying filter and leaking reader against a real table in an offheap, zero-copy cache. */
class DemoTest {

    @TempDir
    Path dir;

    private final TableSpec spec = TestTable.smallSpec();
    private CombinedBlockCache cache;
    private Tables tables;
    private Region region;

    @BeforeEach
    void open() throws Exception {
        TestTable.load(dir, spec);
        cache = (CombinedBlockCache) TestTable.cache(CacheDeploy.CBC_OFFHEAP, ReadPathMode.ZERO_COPY);
        tables = Tables.open(dir, cache);
        region = tables.require(spec.name());
        region.warm();
    }

    @AfterEach
    void close() {
        tables.close();
        cache.shutdown();
    }

    @Test
    void copyingFilterKeepsTheRowsWhoseFirstValueStartsWithZero() throws Exception {
        FilterSpec filter = FilterSpec.parse(
                "class:" + CopyingValueFilter.class.getName(), getClass().getClassLoader());
        ReadResult result = region.scan(
                new ScanSpec(
                        TableSpec.rowKey(0),
                        new byte[0],
                        filter,
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        CellBlock::encodedLength),
                Long.MAX_VALUE);
        List<ClientCell> got;
        try {
            got = TestTable.cells(result);
        } finally {
            result.release();
        }
        List<ClientCell> expected = new ArrayList<>();
        for (long r = 0; r < spec.rows(); r++) {
            List<ClientCell> row = TestTable.expectedRow(spec, r);
            if (!row.isEmpty() && row.get(0).value().length > 0 && row.get(0).value()[0] == 0) {
                expected.addAll(row);
            }
        }
        assertFalse(expected.isEmpty(), "the table has rows the filter keeps");
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < expected.size(); i++) {
            assertTrue(Arrays.equals(expected.get(i).row(), got.get(i).row()), "row of cell " + i);
            assertTrue(Arrays.equals(expected.get(i).value(), got.get(i).value()), "value of cell " + i);
        }
        assertEquals(0, cache.outstandingReferences(), "the filter leaks nothing");
    }

    @Test
    void leakingReaderKeepsOneCheckoutInNAndReturnsTheRest() throws Exception {
        List<StoreFileReader> files = new ArrayList<>();
        for (String name : region.manifest().storeFiles()) {
            files.add(StoreFileReader.open(region.directory().resolve(name)));
        }
        try {
            LeakingReader reader = new LeakingReader(cache, files, 5);
            reader.readSome(200);
            assertTrue(reader.checkouts() >= 150, "most blocks are cache hits after warming: " + reader.checkouts());
            assertEquals(reader.checkouts() / 5, reader.leaked());
            assertEquals(reader.leaked(), cache.outstandingReferences());
        } finally {
            for (StoreFileReader f : files) {
                f.close();
            }
        }
    }

    @Test
    void demoControlLeaksWhileTheFileSaysOnAndStopsWhenItSaysOff() throws Exception {
        Path control = dir.resolve("demo-control");
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        try (DemoControl demo = DemoControl.start(control, cache, tables.regions(), log)) {
            Thread.sleep(600);
            assertEquals(0, cache.outstandingReferences(), "no file, no leak");

            Files.writeString(control, "# demo\nleak = on\nleak.one-in=2\nleak.blocks-per-second=400\nsparkle=yes\n");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (cache.outstandingReferences() < 20 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(cache.outstandingReferences() >= 20, "leaking: " + cache.outstandingReferences());

            Files.writeString(control, "leak=off\n");
            deadline = System.nanoTime() + 10_000_000_000L;
            while (!logBytes.toString(StandardCharsets.UTF_8).contains("leaking reader off")
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long leaked = cache.outstandingReferences();
            Thread.sleep(700);
            assertEquals(leaked, cache.outstandingReferences(), "off: no more leaks, the leaked stay out");
        }
        String text = logBytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("leaking reader on: one checkout in 2 is never returned"), text);
        assertTrue(text.contains("ignoring 'sparkle=yes'"), text);
        assertEquals(
                text.indexOf("ignoring 'sparkle=yes'"), text.lastIndexOf("ignoring 'sparkle=yes'"), "once: " + text);
    }

    @Test
    void noFileNoDemo() {
        assertEquals(null, DemoControl.start(null, cache, tables.regions(), System.err));
    }
}
