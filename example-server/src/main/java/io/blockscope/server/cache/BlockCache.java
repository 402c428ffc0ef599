package io.blockscope.server.cache;

/**
 * A cache of store file blocks.
 *
 * <p>Reference rule: every {@code getBlock} that returns a block takes one reference on it, and
 * the caller must give it back with exactly one {@link #returnBlock} once nothing refers to the
 * block's bytes any more (for the RPC tier: after the response is written). A block with
 * outstanding references is never freed: eviction marks it and the last return frees it.
 */
public interface BlockCache {

    /**
     * The cached block, or null on a miss.
     *
     * @param caching            whether the caller would cache the block on a miss (statistics only)
     * @param repeat             true when this is a second lookup for the same read (not counted as a miss twice)
     * @param updateCacheMetrics false when a wrapping cache counts the request itself
     */
    Block getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics);

    /** Gives back the reference taken by {@link #getBlock}. */
    void returnBlock(BlockCacheKey key, Block block);

    /** Caches a block. The cache copies what it keeps; the caller keeps ownership of {@code block}. */
    void cacheBlock(BlockCacheKey key, Block block, boolean inMemory);

    default void cacheBlock(BlockCacheKey key, Block block) {
        cacheBlock(key, block, false);
    }

    /** Evicts a block; if it is referenced its memory is freed by the last {@link #returnBlock}. */
    boolean evictBlock(BlockCacheKey key);

    /** Evicts every block of a file; returns how many were evicted. */
    int evictBlocksByFile(String fileName);

    CacheStats getStats();

    /** Bytes this cache may hold. */
    long capacity();

    /** Bytes of blocks currently cached. */
    long usedSize();

    long blockCount();

    void shutdown();
}
