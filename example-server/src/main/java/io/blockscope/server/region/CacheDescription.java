package io.blockscope.server.region;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCaches;
import io.blockscope.server.cache.CacheStats;
import io.blockscope.server.cache.bucket.BucketAllocator;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.combined.CombinedBlockCache;
import io.blockscope.server.cache.lru.LruBlockCache;
import io.blockscope.units.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The live state of a block cache as plain maps (for {@code /status}) and as one summary line. */
public final class CacheDescription {

    private CacheDescription() {}

    /** The {@code cache} section of {@code /status}: totals, then each tier with its bucket classes. */
    public static Map<String, Object> of(BlockCache cache) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", cache.getClass().getSimpleName());
        m.put("summary", summary(cache));
        m.put("capacityBytes", cache.capacity());
        m.put("usedBytes", cache.usedSize());
        m.put("blockCount", cache.blockCount());
        m.put("stats", stats(cache.getStats()));
        if (cache instanceof CombinedBlockCache combined) {
            m.put("outstandingReferences", combined.outstandingReferences());
            m.put("l1", lru(combined.l1()));
            combined.l2().ifPresent(l2 -> m.put("l2", bucket(l2)));
        } else if (cache instanceof LruBlockCache lru) {
            m.put("outstandingReferences", lru.outstandingReferences());
            m.put("l1", lru(lru));
        } else if (cache instanceof BucketCache bucket) {
            m.put("outstandingReferences", bucket.outstandingReferences());
            m.put("l2", bucket(bucket));
        }
        return m;
    }

    /** One line: blocks and bytes per tier and the hit ratio. */
    public static String summary(BlockCache cache) {
        StringBuilder s = new StringBuilder();
        if (cache instanceof CombinedBlockCache combined) {
            s.append("L1 ").append(tier(combined.l1()));
            s.append(", L2 ").append(combined.l2().map(CacheDescription::tier).orElse("none"));
        } else {
            s.append(tier(cache));
        }
        CacheStats stats = cache.getStats();
        s.append(String.format(", hit ratio %.4f over %,d lookups", stats.hitRatio(), stats.requestCount()));
        return s.toString();
    }

    private static String tier(BlockCache cache) {
        return String.format(
                "%,d blocks, %s of %s",
                cache.blockCount(),
                Units.formatBytes(roundToKiB(cache.usedSize())),
                Units.formatBytes(roundToKiB(cache.capacity())));
    }

    private static long roundToKiB(long bytes) {
        return bytes < 1024 ? bytes : (bytes + 512) / 1024 * 1024;
    }

    /** The read-path mode label of the cache's L2, or "n/a" for deploys without one. */
    public static String readPath(BlockCache cache) {
        return BlockCaches.l2Of(cache).map(l2 -> l2.readPathMode().label()).orElse("n/a");
    }

    private static Map<String, Object> stats(CacheStats stats) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", stats.requestCount());
        m.put("hits", stats.hitCount());
        m.put("misses", stats.missCount());
        m.put("hitRatio", stats.hitRatio());
        m.put("evictions", stats.evictionCount());
        m.put("evictedBlocks", stats.evictedBlockCount());
        return m;
    }

    private static Map<String, Object> lru(LruBlockCache l1) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("capacityBytes", l1.capacity());
        m.put("usedBytes", l1.usedSize());
        m.put("blockCount", l1.blockCount());
        m.put("outstandingReferences", l1.outstandingReferences());
        m.put("stats", stats(l1.getStats()));
        return m;
    }

    private static Map<String, Object> bucket(BucketCache l2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ioEngine", l2.ioEngine().toString());
        m.put("readPath", l2.readPathMode().label());
        m.put("capacityBytes", l2.capacity());
        m.put("usedBytes", l2.usedSize());
        m.put("wastedBytes", l2.wastedBytes());
        m.put("blockCount", l2.blockCount());
        m.put("allocationFailures", l2.allocationFailures());
        m.put("outstandingReferences", l2.outstandingReferences());
        m.put("stats", stats(l2.getStats()));
        List<Map<String, Object>> classes = new ArrayList<>();
        for (BucketAllocator.IndexStatistics c : l2.allocator().indexStatistics()) {
            Map<String, Object> bucketClass = new LinkedHashMap<>();
            bucketClass.put("itemSize", c.itemSize());
            bucketClass.put("totalCount", c.totalCount());
            bucketClass.put("usedCount", c.usedCount());
            bucketClass.put("freeCount", c.freeCount());
            bucketClass.put("usedBytes", c.usedBytes());
            bucketClass.put("freeBytes", c.freeBytes());
            classes.add(bucketClass);
        }
        m.put("bucketClasses", classes);
        return m;
    }
}
