package io.blockscope.hbaseit.driver;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * A reader with two bugs. {@link #checkOutAndForget} takes a block from a real offheap BucketCache
 * and drops it without giving it back: the block object becomes garbage while the cache still
 * counts its reference. {@link #checkOutAndKeep} takes one and never lets go. The agent must
 * report the first as a {@code gc} leak and the second as an {@code age} leak, each with its site.
 *
 * <p>After the leaks it reads (and correctly gives back) a third block a few times, collecting
 * garbage between reads, so a leak detector that reports on later checkouts gets its chance; then
 * it stops reading and prints the checkpoint {@code leaked}, so the test's scrapes never race a read.
 */
public final class LeakingReader {

    private static final long NUDGE_MILLIS = 100;

    private final HBaseBlocks blocks = HBaseBlocks.detect();
    private final DriverConsole console = new DriverConsole();
    /** The block {@link #checkOutAndKeep} never gives back; a field so it stays reachable. */
    private Cacheable kept;

    private volatile long nudges;

    public static void main(String[] args) throws Exception {
        new LeakingReader().run();
    }

    private void run() throws Exception {
        try (StandaloneBucketCache bucket = new StandaloneBucketCache()) {
            BucketCache cache = bucket.cache();
            BlockCacheKey forgotten = cache(bucket, 0);
            BlockCacheKey keptKey = cache(bucket, 1);
            BlockCacheKey healthy = cache(bucket, 2);

            checkOutAndForget(cache, forgotten);
            checkOutAndKeep(cache, keptKey);

            Thread nudger = new Thread(() -> nudge(cache, healthy), "blockscope-leak-nudger");
            nudger.setDaemon(true);
            nudger.start();
            while (nudges < 3) {
                Thread.sleep(10);
            }
            // Reads stop before the test looks: a read in flight while it scrapes would be a third
            // outstanding reference. The leaks are found on its scrapes from here on.
            nudger.interrupt();
            nudger.join(TimeUnit.SECONDS.toMillis(10));
            console.checkpoint(
                    "leaked",
                    new DriverConsole.Fields()
                            .put("model", blocks.model())
                            .put("leaked.gc", 1)
                            .put("leaked.age", 1)
                            .put("kept.offset", keptKey.getOffset()));
        }
    }

    /** Bug one: the block is read and dropped, never given back. */
    private static void checkOutAndForget(BucketCache cache, BlockCacheKey key) {
        Cacheable block = cache.getBlock(key, true, false, true);
        if (block == null) {
            throw new IllegalStateException("block " + key + " missing from the cache");
        }
    }

    /** Bug two: the block is read and held on to for good. */
    private void checkOutAndKeep(BucketCache cache, BlockCacheKey key) {
        kept = cache.getBlock(key, true, false, true);
        if (kept == null) {
            throw new IllegalStateException("block " + key + " missing from the cache");
        }
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // one writer (this thread): the increment need not be atomic
    private void nudge(BucketCache cache, BlockCacheKey key) {
        while (!Thread.currentThread().isInterrupted()) {
            long fullBefore = fullCollections();
            System.gc();
            Cacheable block = cache.getBlock(key, true, false, true);
            blocks.giveBack(cache, key, block);
            // The VM skips a System.gc() when another collection ran since it was asked for: only
            // a full collection that happened counts, so the test can rely on three of them.
            if (fullBefore < 0 || fullCollections() > fullBefore) {
                nudges++;
            }
            try {
                Thread.sleep(NUDGE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Full (old-generation) collections so far, as the JVM's GC beans count them; -1 for a collector
     * without such a bean (ZGC, Shenandoah), where every nudge counts.
     */
    private static long fullCollections() {
        long n = -1;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName();
            if (name.contains("Old") || name.contains("MarkSweep")) {
                n = Math.max(n, 0) + Math.max(0, gc.getCollectionCount());
            }
        }
        return n;
    }

    private BlockCacheKey cache(StandaloneBucketCache bucket, int index) throws InterruptedException {
        long offset = index * 10_000L;
        BlockCacheKey key = new BlockCacheKey("blockscope-leaky-hfile", offset);
        Cacheable block = blocks.newDataBlock(8_000, offset);
        bucket.cacheAndWait(key, block);
        blocks.dropCreatorReference(block);
        return key;
    }
}
