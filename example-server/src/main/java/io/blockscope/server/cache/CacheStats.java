package io.blockscope.server.cache;

import java.util.concurrent.atomic.LongAdder;

/** Request counters of one cache. Striped adders: every read path thread bumps these. */
public final class CacheStats {

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedBlocks = new LongAdder();

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
