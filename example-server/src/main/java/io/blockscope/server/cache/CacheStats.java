package io.blockscope.server.cache;

import java.util.concurrent.atomic.LongAdder;

/** Request counters of one cache. Striped adders: every read path thread bumps these. */
public final class CacheStats {

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedBlocks = new LongAdder();

    /**
     * Counters preset to the given values: how a cache made of other caches reports their sum.
     * Counting on the returned object changes only that object.
     */
    public static CacheStats of(long hits, long misses, long evictions, long evictedBlocks) {
        CacheStats stats = new CacheStats();
        stats.hits.add(hits);
        stats.misses.add(misses);
        stats.evictions.add(evictions);
        stats.evictedBlocks.add(evictedBlocks);
        return stats;
    }

    public void hit() {
        hits.increment();
    }

    public void miss() {
        misses.increment();
    }

    /** One eviction run (or one explicit evict) that freed {@code blocks} blocks. */
    public void evicted(long blocks) {
        evictions.increment();
        evictedBlocks.add(blocks);
    }

    public long hitCount() {
        return hits.sum();
    }

    public long missCount() {
        return misses.sum();
    }

    public long requestCount() {
        return hits.sum() + misses.sum();
    }

    public long evictionCount() {
        return evictions.sum();
    }

    public long evictedBlockCount() {
        return evictedBlocks.sum();
    }

    /** Hits over requests, 0 when there were none. */
    public double hitRatio() {
        long h = hits.sum();
        long total = h + misses.sum();
        return total == 0 ? 0 : (double) h / total;
    }
}
