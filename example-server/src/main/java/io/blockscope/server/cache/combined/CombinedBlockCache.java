package io.blockscope.server.cache.combined;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.CacheStats;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.lru.LruBlockCache;
import java.util.Objects;
import java.util.Optional;

/**
 * Two tiers behind one {@link BlockCache}: meta blocks (index, bloom) in the on-heap L1, data blocks
 * in the L2 bucket cache: the "CombinedBlockCache" deploys. Without an L2 ({@link #metaOnly}) data
 * blocks are never cached.
 *
 * <p>Routing invariant: a block lives in the tier its type selects, so a block's type also tells
 * which tier handed it out and must take it back. A lookup asks L1, then L2; each tier counts its own
 * lookup once (an L2 hit is also an L1 miss), while {@link #getStats()} counts each logical lookup
 * once: a hit when either tier had the block.
 */
public final class CombinedBlockCache implements BlockCache {

    private final LruBlockCache l1;
    private final BucketCache l2; // null: meta-only deploy
    private final CacheStats lookups = new CacheStats();

    /** Meta blocks in {@code l1}, data blocks in {@code l2}. */
    public CombinedBlockCache(LruBlockCache l1, BucketCache l2) {
        this.l1 = Objects.requireNonNull(l1, "l1");
        this.l2 = Objects.requireNonNull(l2, "l2");
    }

    private CombinedBlockCache(LruBlockCache l1) {
        this.l1 = Objects.requireNonNull(l1, "l1");
        this.l2 = null;
    }

    /** Meta blocks in {@code l1}; data blocks are never cached (the META-only deploy). */
    public static CombinedBlockCache metaOnly(LruBlockCache l1) {
        return new CombinedBlockCache(l1);
    }

    public LruBlockCache l1() {
        return l1;
    }

    /** The data tier; empty for the meta-only deploy. */
    public Optional<BucketCache> l2() {
        return Optional.ofNullable(l2);
    }

    @Override
    public Block getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
        Block block = l1.getBlock(key, caching, repeat, updateCacheMetrics);
        if (block == null && l2 != null) {
            block = l2.getBlock(key, caching, repeat, updateCacheMetrics);
        }
        if (updateCacheMetrics) {
            if (block != null) {
                lookups.hit();
            } else if (!repeat) {
                lookups.miss();
            }
        }
        return block;
    }

    /**
     * Gives the block back to the tier its type routes to, copies included: the tier ignores an
     * exclusive copy, but a per-tier count of returns (the agent's) still balances its hits.
     */
    @Override
    public void returnBlock(BlockCacheKey key, Block block) {
        if (block.type().isMeta()) {
            l1.returnBlock(key, block);
        } else if (l2 != null) {
            l2.returnBlock(key, block);
        }
    }

    @Override
    public void cacheBlock(BlockCacheKey key, Block block, boolean inMemory) {
        if (block.type().isMeta()) {
            l1.cacheBlock(key, block, inMemory);
        } else if (l2 != null) {
            l2.cacheBlock(key, block, inMemory);
        }
    }

    @Override
    public boolean evictBlock(BlockCacheKey key) {
        boolean evicted = l1.evictBlock(key);
        if (l2 != null) {
            evicted |= l2.evictBlock(key);
        }
        return evicted;
    }

    @Override
    public int evictBlocksByFile(String fileName) {
        return l1.evictBlocksByFile(fileName) + (l2 == null ? 0 : l2.evictBlocksByFile(fileName));
    }

    /** Logical lookups (each counted once), and the evictions of both tiers. */
    @Override
    public CacheStats getStats() {
        CacheStats l1Stats = l1.getStats();
        long evictions = l1Stats.evictionCount();
        long evictedBlocks = l1Stats.evictedBlockCount();
        if (l2 != null) {
            evictions += l2.getStats().evictionCount();
            evictedBlocks += l2.getStats().evictedBlockCount();
        }
        return CacheStats.of(lookups.hitCount(), lookups.missCount(), evictions, evictedBlocks);
    }

    @Override
    public long capacity() {
        return l1.capacity() + (l2 == null ? 0 : l2.capacity());
    }

    @Override
    public long usedSize() {
        return l1.usedSize() + (l2 == null ? 0 : l2.usedSize());
    }

    @Override
    public long blockCount() {
        return l1.blockCount() + (l2 == null ? 0 : l2.blockCount());
    }

    /** Checkouts not yet returned, both tiers. */
    public long outstandingReferences() {
        return l1.outstandingReferences() + (l2 == null ? 0 : l2.outstandingReferences());
    }

    @Override
    public void shutdown() {
        l1.shutdown();
        if (l2 != null) {
            l2.shutdown();
        }
    }

    @Override
    public String toString() {
        return "CombinedBlockCache[l1=" + l1 + ", l2=" + (l2 == null ? "none" : l2) + "]";
    }
}
