package io.blockscope.server.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockCaches;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.rpc.CellBlock;
import io.blockscope.server.rpc.ClientCell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers go through the region (gets, multi-gets, scans) and check every cell they got against
 * the generated table while another thread churns a zero-copy offheap cache far too small for the
 * table: evicting whole files and filling freed slots with garbage blocks. A slot freed while a
 * reader still pointed into it would show up as a wrong cell. Afterwards no reference may be
 * outstanding and every block evicted while pinned must have been freed.
 */
class RegionCacheStressTest {

    private static final long RUN_NANOS = 4_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void cellsStayIntactWhileTheCacheChurnsUnderneath() throws Exception {
        TableSpec spec = new TableSpec("stress", 6_000, 2, 400, ValueDistribution.RANDOM, 99, 12345);
        TableLoader.load(dir, spec, 4096, 3, line -> {});
        // 17 KB is the largest class, so a bucket is 68 KB; 1 MB of L2 for ~2.5 MB of data.
        CacheConfig config = CacheConfig.builder()
                .deploy(CacheDeploy.CBC_OFFHEAP)
                .readPathMode(ReadPathMode.ZERO_COPY)
                .l1Size(4 << 20)
                .l2Size(1 << 20)
                .bucketSizes(5 << 10, 9 << 10, 17 << 10)
                .build();
        CombinedBlockCache cache = (CombinedBlockCache) BlockCaches.create(config);
        BucketCache l2 = cache.l2().orElseThrow();
        try (Tables tables = Tables.open(dir, cache)) {
            Region region = tables.require("stress");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong verifiedCells = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                long seed = r;
                threads.add(new Thread(
                        () -> {
                            try {
                                read(region, spec, seed, stop, verifiedCells);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        },
                        "reader-" + r));
            }
            List<String> files = new ArrayList<>();
            for (String f : region.manifest().storeFiles()) {
                files.add(region.directory()
                        .resolve(f)
                        .toAbsolutePath()
                        .normalize()
                        .toString());
            }
            threads.add(new Thread(() -> churn(cache, files, stop), "churn"));
            // a thread's AssertionError is handed to the test thread; each release is in a finally
            threads.forEach(t -> t.setUncaughtExceptionHandler((thread, e) -> failure.compareAndSet(null, e)));
            threads.forEach(Thread::start);
            long end = System.nanoTime() + RUN_NANOS;
            while (System.nanoTime() < end && failure.get() == null) {
                Thread.sleep(50);
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a reader or the churn thread failed", failure.get());
            }
            assertTrue(verifiedCells.get() > 1_000, "too little was read to mean anything: " + verifiedCells.get());
            assertTrue(
                    l2.getStats().evictedBlockCount() > 100,
                    "the cache did not churn: " + l2.getStats().evictedBlockCount());
            assertEquals(0, tables.outstandingBlockReferences());
            assertEquals(0, cache.outstandingReferences());
            assertEquals(0, l2.retiredBlockCount(), "blocks evicted while pinned must be freed by their last return");
        } finally {
            cache.shutdown();
        }
    }

    private static void read(Region region, TableSpec spec, long seed, AtomicBoolean stop, AtomicLong verified)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        while (!stop.get()) {
            List<ClientCell> expected = new ArrayList<>();
            ReadResult result;
            switch (random.nextInt(3)) {
                case 0 -> {
                    long row = random.nextLong(spec.rows());
                    expected.addAll(TestTable.expectedRow(spec, row));
                    result = region.get(TableSpec.rowKey(row), Long.MAX_VALUE);
                }
                case 1 -> {
                    byte[][] keys = new byte[20][];
                    for (int i = 0; i < keys.length; i++) {
                        long row = random.nextLong(spec.rows());
                        keys[i] = TableSpec.rowKey(row);
                        expected.addAll(TestTable.expectedRow(spec, row));
                    }
                    result = region.multiGet(keys, keys.length, Long.MAX_VALUE);
                }
                default -> {
                    long first = random.nextLong(spec.rows() - 100);
                    expected.addAll(TestTable.expectedRows(spec, first, first + 100));
                    result = region.scan(
                            new ScanSpec(
                                    TableSpec.rowKey(first),
                                    TableSpec.rowKey(first + 100),
                                    FilterSpec.none(),
                                    1000,
                                    Long.MAX_VALUE,
                                    CellBlock::encodedLength),
                            Long.MAX_VALUE);
                }
            }
            try {
                // Hold the cells a moment, as a response being written would, while the cache churns.
                Thread.yield();
                List<ClientCell> got = TestTable.cells(result);
                if (!expected.equals(got)) {
                    throw new AssertionError(
                            "wrong cells: expected " + expected.size() + " cells starting " + expected.get(0) + ", got "
                                    + got.size() + (got.isEmpty() ? "" : " starting " + got.get(0)));
                }
                verified.addAndGet(got.size());
            } finally {
                result.release();
            }
        }
    }

    /** Evicts whole files and fills the freed slots with blocks of garbage under other keys. */
    private static void churn(CombinedBlockCache cache, List<String> files, AtomicBoolean stop) {
        SplittableRandom random = new SplittableRandom(7);
        long next = 0;
        while (!stop.get()) {
            cache.evictBlocksByFile(files.get(random.nextInt(files.size())));
            for (int i = 0; i < 8; i++) {
                byte[] garbage = new byte[3000 + random.nextInt(1000)];
                random.nextBytes(garbage);
                BlockCacheKey key = new BlockCacheKey("churn", next++);
                cache.cacheBlock(key, new Block(BlockType.DATA, ByteBuff.wrap(garbage), Block.MemoryType.EXCLUSIVE));
            }
            cache.evictBlocksByFile("churn");
        }
    }
}
