package io.blockscope.hbaseit.driver;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketAllocator;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * A real offheap {@link BucketCache}, as a RegionServer configures it with
 * {@code hbase.bucketcache.ioengine=offheap}, but without a cluster around it.
 *
 * <p>Inserts go through the cache's writer thread: {@link #cacheAndWait} returns only once the block
 * sits in the backing map (offheap) and no longer in the RAM queue, so later reads hit the IO engine
 * and take a reference like a RegionServer read would.
 */
final class StandaloneBucketCache implements AutoCloseable {

    /** Room for every default size class (4 KB + 1 KB .. 512 KB + 1 KB) plus spare buckets. */
    static final long CAPACITY_BYTES = 64L << 20;

    private static final int BLOCK_SIZE = 64 << 10;
    private static final long WRITE_TIMEOUT_NANOS = 30_000_000_000L;

    private final BucketCache cache;
    private final Map<?, ?> backingMap;
    private final Object ramCache;
    private final Method ramCacheContains;

    StandaloneBucketCache() throws IOException {
        cache = new BucketCache(
                "offheap",
                CAPACITY_BYTES,
                BLOCK_SIZE,
                null,
                1,
                64,
                null,
                BucketCache.DEFAULT_ERROR_TOLERATION_DURATION,
                HBaseConfiguration.create());
        // Package-private in every 2.x release; HBase's own tests read them the same way.
        backingMap = (Map<?, ?>) field("backingMap");
        ramCache = field("ramCache");
        ramCacheContains = Reflection.method(ramCache.getClass(), "containsKey", 1);
    }

    BucketCache cache() {
        return cache;
    }

    /** Caches {@code block} and waits until the writer thread has put it in offheap memory. */
    void cacheAndWait(BlockCacheKey key, Cacheable block) throws InterruptedException {
        cache.cacheBlock(key, block);
        awaitWritten(key);
    }

    /** Waits until the writer thread has put the block cached under {@code key} in offheap memory. */
    void awaitWritten(BlockCacheKey key) throws InterruptedException {
        long deadline = System.nanoTime() + WRITE_TIMEOUT_NANOS;
        while (!backingMap.containsKey(key) || inRamCache(key)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("block " + key + " not written to the bucket cache within 30 s");
            }
            Thread.sleep(1);
        }
    }

    boolean isCached(BlockCacheKey key) {
        return backingMap.containsKey(key);
    }

    /** The allocator's own per-size-class statistics ({@code BucketAllocator#getIndexStatistics()}). */
    List<SizeClassStats> sizeClasses() {
        BucketAllocator allocator = cache.getAllocator();
        Object[] stats = (Object[])
                Reflection.invoke(Reflection.method(BucketAllocator.class, "getIndexStatistics", 0), allocator);
        List<SizeClassStats> result = new ArrayList<>(stats.length);
        for (Object s : stats) {
            Class<?> type = s.getClass();
            result.add(new SizeClassStats(
                    (long) Reflection.invoke(Reflection.method(type, "itemSize", 0), s),
                    (long) Reflection.invoke(Reflection.method(type, "usedCount", 0), s),
                    (long) Reflection.invoke(Reflection.method(type, "freeCount", 0), s)));
        }
        return result;
    }

    /** The cache's own counters and allocator statistics, as one checkpoint's fields. */
    void describe(DriverConsole.Fields fields) {
        fields.put("cache.hits", cache.getStats().getHitCount())
                .put("cache.misses", cache.getStats().getMissCount())
                .put("cache.blocks", cache.getBlockCount())
                .put("cache.capacity", cache.getAllocator().getTotalSize())
                .put("cache.used", cache.getAllocator().getUsedSize());
        for (SizeClassStats s : sizeClasses()) {
            fields.put("slots." + s.itemSize() + ".used", s.used()).put("slots." + s.itemSize() + ".free", s.free());
        }
    }

    /** The payload byte at {@code index} of a block read back, to prove the cache returned real data. */
    static byte byteAt(Cacheable block, int index) {
        return ((HFileBlock) block).getBufferReadOnly().get(index);
    }

    @Override
    public void close() {
        cache.shutdown();
    }

    private boolean inRamCache(BlockCacheKey key) {
        return (boolean) Reflection.invoke(ramCacheContains, ramCache, key);
    }

    private Object field(String name) {
        try {
            Field f = BucketCache.class.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(cache);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("BucketCache." + name + " not found: " + e, e);
        }
    }

    /** One bucket size class: slot size and slots in use / free. */
    static final class SizeClassStats {
        private final long itemSize;
        private final long used;
        private final long free;

        SizeClassStats(long itemSize, long used, long free) {
            this.itemSize = itemSize;
            this.used = used;
            this.free = free;
        }

        public long itemSize() {
            return itemSize;
        }

        public long used() {
            return used;
        }

        public long free() {
            return free;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof SizeClassStats)) {
                return false;
            }
            SizeClassStats that = (SizeClassStats) o;
            return itemSize == that.itemSize && used == that.used && free == that.free;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(itemSize, used, free);
        }

        @Override
        public String toString() {
            return "SizeClassStats[itemSize=" + itemSize + ", used=" + used + ", free=" + free + "]";
        }
    }
}
