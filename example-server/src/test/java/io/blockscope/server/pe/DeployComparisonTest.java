package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cli.Main;
import io.blockscope.server.pe.DeployRun.DeployResult;
import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test-sized deploy comparison through the command line: every deploy runs every loading, the
 * cache behaves as each loading intends (all hits in cache, misses read from the store files when
 * the data outgrows it), and the JSON and charts are written.
 */
class DeployComparisonTest {

    @TempDir
    Path dir;

    @Test
    void everyDeployRunsEveryLoadingAndTheCacheBehavesAsTheLoadingIntends() throws Exception {
        Path json = dir.resolve("deploys.json");
        int exit = Main.execute(
                "pe",
                "--loadings",
                "0.5,8",
                "--cache-size",
                "8m",
                "--deploy",
                "lru,cbc-offheap,meta-only",
                "--threads",
                "2",
                "--duration",
                "1s",
                "--tick",
                "500ms",
                "--live-every",
                "2",
                "--warmup",
                "1s",
                "--rows",
                "12000",
                "--value-dist",
                "zipf",
                "--value-size",
                "262144",
                "--no-progress",
                "--json",
                json.toString(),
                "--charts",
                dir.resolve("charts").toString());
        assertEquals(0, exit);
        DeployRun run = DeployRun.read(json);
        assertEquals(
                List.of("lru", "cbc-offheap", "meta-only"),
                run.deploys().stream().map(DeployResult::deploy).toList());
        for (DeployResult d : run.deploys()) {
            assertEquals(2, d.loadings().size());
            LoadingResult small = d.loadings().get(0);
            LoadingResult large = d.loadings().get(1);
            assertEquals(16 * small.rows(), large.rows(), 16, "8x against 0.5x of the same cache (each rounded up)");
            for (LoadingResult l : d.loadings()) {
                assertEquals(2, l.samples().size(), "1 s in ticks of 500 ms");
                assertEquals(0, l.errors());
                Figures f = l.totals();
                assertTrue(f.ops() > 0 && f.opsPerSec() > 0);
                assertTrue(f.p50Micros() <= f.p95Micros()
                        && f.p95Micros() <= f.p99Micros()
                        && f.p99Micros() <= f.p999Micros());
                assertEquals(l.samples().stream().mapToLong(Figures::ops).sum(), f.ops(), "totals sum the ticks");
                assertNotNull(f.heapAfterGcBytes());
                // --live-every 2: a full collection after the second tick of each loading, none after the first
                assertNull(l.samples().get(0).liveHeapBytes(), "no full collection after the first tick");
                Figures probed = l.samples().get(1);
                assertNotNull(probed.liveHeapBytes(), "a full collection after the second tick: " + probed);
                assertTrue(probed.liveHeapBytes() > 0);
                assertNull(f.liveHeapBytes(), "a loading's totals hold no point reading");
                if (d.deploy().equals("cbc-offheap")) {
                    assertTrue(
                            probed.liveDirectBytes() >= l2Capacity(8L << 20),
                            "the L2 is live direct memory: " + probed);
                }
            }
            double[] t = d.loadings().stream()
                    .flatMap(l -> l.samples().stream())
                    .mapToDouble(Figures::t)
                    .toArray();
            for (int i = 1; i < t.length; i++) {
                assertTrue(t[i] > t[i - 1], "time runs on across the loadings of " + d.deploy());
            }
        }
        Figures lruSmall = run.deploys().get(0).loadings().get(0).totals();
        Figures lruLarge = run.deploys().get(0).loadings().get(1).totals();
        assertEquals(1.0, lruSmall.dataHitRatio(), 0.02, "half the cache's worth of data stays in it after warm-up");
        assertTrue(lruLarge.dataHitRatio() < 0.5, "8x the cache misses most of the time: " + lruLarge);
        assertTrue(lruLarge.fileReadsPerSec() > 0 && lruLarge.evictedBlocks() > 0, lruLarge.toString());
        Figures offheapLarge = run.deploys().get(1).loadings().get(1).totals();
        assertTrue(offheapLarge.evictedBlocks() > 0, "the L2 churns: " + offheapLarge);
        Figures metaOnly = run.deploys().get(2).loadings().get(0).totals();
        assertEquals(0.0, metaOnly.dataHitRatio(), "meta-only reads every data block from the store files");
        // every get reads its row's data block from a file (and another when a bloom filter errs)
        assertTrue(metaOnly.fileReadsPerSec() * metaOnly.seconds() >= metaOnly.ops() * 0.99, metaOnly.toString());
        assertTrue(Files.exists(dir.resolve("charts/deploys-throughput.png")));
        assertTrue(Files.exists(dir.resolve("charts/deploys-gc-pause.png")));
    }

    /** The direct memory an L2 of {@code size} reserves: whole buckets of the default slot sizes. */
    private static long l2Capacity(long size) {
        long bucket = io.blockscope.server.cache.bucket.BucketAllocator.bucketSizeFor(
                io.blockscope.server.cache.CacheConfig.builder()
                        .deploy(io.blockscope.server.cache.CacheDeploy.CBC_OFFHEAP)
                        .l1Size(size)
                        .l2Size(size)
                        .build()
                        .bucketSizes());
        long capacity = size / bucket * bucket;
        assertTrue(capacity > 0, "an L2 of " + size + " bytes holds at least one bucket of " + bucket);
        return capacity;
    }

    @Test
    void theDataCacheIsLrusOnlyCacheAndTheCombinedDeploysL2OnTheChosenReadPath() {
        DeployComparison.Settings settings = new DeployComparison.Settings(
                io.blockscope.server.cache.ReadPathMode.COPY,
                List.of(io.blockscope.server.cache.CacheDeploy.LRU),
                List.of(0.5),
                64L << 20,
                8L << 20,
                2,
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ZERO,
                java.time.Duration.ofMillis(500),
                0,
                1,
                false);
        var lru = settings.cacheConfig(io.blockscope.server.cache.CacheDeploy.LRU);
        assertEquals(64L << 20, lru.l1Size());
        var offheap = settings.cacheConfig(io.blockscope.server.cache.CacheDeploy.CBC_OFFHEAP);
        assertEquals(8L << 20, offheap.l1Size());
        assertEquals(64L << 20, offheap.l2Size());
        assertEquals(io.blockscope.server.cache.ReadPathMode.COPY, offheap.readPathMode());
        var metaOnly = settings.cacheConfig(io.blockscope.server.cache.CacheDeploy.META_ONLY);
        assertEquals(8L << 20, metaOnly.l1Size());
        assertEquals(2, settings.ticks());
    }

    @Test
    void loadingsRunOneReadPath() throws Exception {
        int exit = Main.execute(
                "pe", "--loadings", "0.5,2", "--read-path", "copy,zero-copy", "--threads", "2", "--rows", "100");
        assertEquals(2, exit, "bad options exit 2");
    }

    @Test
    void loadingsNeedOneThreadCount() throws Exception {
        int exit = Main.execute("pe", "--loadings", "0.5,2", "--threads", "2,4", "--rows", "100", "--no-progress");
        assertEquals(2, exit, "bad options exit 2");
    }
}
