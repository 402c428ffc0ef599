package io.blockscope.server.cache.combined;

import static io.blockscope.server.cache.TestBlocks.block;
import static io.blockscope.server.cache.TestBlocks.intact;
import static io.blockscope.server.cache.TestBlocks.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cache.CacheStats;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.bucket.BucketCache;
import io.blockscope.server.cache.bucket.ByteBufferIOEngine;
import io.blockscope.server.cache.lru.LruBlockCache;
import org.junit.jupiter.api.Test;

class CombinedBlockCacheTest {

    private static final int K = 1024;

    private final LruBlockCache l1 = new LruBlockCache(1 << 20);

    private BucketCache l2(ReadPathMode mode) {
        return new BucketCache(ByteBufferIOEngine.offheap(256 * K), new int[] {8 * K, 64 * K}, mode);
    }

    @Test
    void metaBlocksGoToL1AndDataBlocksToL2() {
        BucketCache l2 = l2(ReadPathMode.ZERO_COPY);
        CombinedBlockCache cache = new CombinedBlockCache(l1, l2);
        cache.cacheBlock(key(1), block(BlockType.INDEX, 1, 2000));
        cache.cacheBlock(key(2), block(BlockType.BLOOM, 2, 3000));
        cache.cacheBlock(key(3), block(BlockType.DATA, 3, 60 * K));
        assertTrue(l1.containsBlock(key(1)));
        assertTrue(l1.containsBlock(key(2)));
        assertFalse(l2.containsBlock(key(1)));
        assertTrue(l2.containsBlock(key(3)));
        assertFalse(l1.containsBlock(key(3)));
        assertEquals(3, cache.blockCount());
        assertEquals(l1.usedSize() + l2.usedSize(), cache.usedSize());
        assertEquals(l1.capacity() + l2.capacity(), cache.capacity());
        assertSame(l1, cache.l1());
        assertSame(l2, cache.l2().orElseThrow());
    }

    @Test
    void eachLookupCountsOncePerTierAndOnceOverall() {
        BucketCache l2 = l2(ReadPathMode.ZERO_COPY);
        CombinedBlockCache cache = new CombinedBlockCache(l1, l2);
        cache.cacheBlock(key(1), block(BlockType.INDEX, 1, 2000));
        cache.cacheBlock(key(2), block(BlockType.DATA, 2, 5000));

        Block meta = cache.getBlock(key(1), true, false, true);
        Block data = cache.getBlock(key(2), true, false, true);
        assertNull(cache.getBlock(key(3), true, false, true));
        assertNull(cache.getBlock(key(3), true, true, true)); // a repeat: no second miss

        assertFalse(meta.data().isDirect());
        assertTrue(intact(meta, 1));
        assertTrue(data.data().isDirect());
        assertTrue(intact(data, 2));
        // l1 saw three lookups: one hit, two misses (data block 2, absent block 3)
        assertEquals(1, l1.getStats().hitCount());
        assertEquals(2, l1.getStats().missCount());
        // l2 saw only what l1 missed
        assertEquals(1, l2.getStats().hitCount());
        assertEquals(1, l2.getStats().missCount());
        CacheStats overall = cache.getStats();
        assertEquals(2, overall.hitCount());
        assertEquals(1, overall.missCount());

        cache.returnBlock(key(1), meta);
        cache.returnBlock(key(2), data);
        assertEquals(0, l1.outstandingReferences());
        assertEquals(0, l2.outstandingReferences());
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void blocksGoBackToTheTierThatHandedThemOut() {
        BucketCache l2 = l2(ReadPathMode.ZERO_COPY);
        CombinedBlockCache cache = new CombinedBlockCache(l1, l2);
        cache.cacheBlock(key(1), block(BlockType.INDEX, 1, 2000));
        cache.cacheBlock(key(2), block(BlockType.DATA, 2, 5000));
        Block meta = cache.getBlock(key(1), true, false, true);
        Block data = cache.getBlock(key(2), true, false, true);
        assertEquals(1, l1.referenceCount(key(1)));
        assertEquals(1, l2.referenceCount(key(2)));
        cache.returnBlock(key(2), data);
        assertEquals(0, l2.referenceCount(key(2)));
        assertEquals(1, l1.referenceCount(key(1)));
        cache.returnBlock(key(1), meta);
        assertEquals(0, l1.referenceCount(key(1)));
    }

    @Test
    void copyModeL2BlocksAreExclusiveAndReturnsAreHarmless() {
        BucketCache l2 = l2(ReadPathMode.COPY);
        CombinedBlockCache cache = new CombinedBlockCache(l1, l2);
        cache.cacheBlock(key(2), block(BlockType.DATA, 2, 5000));
        Block data = cache.getBlock(key(2), true, false, true);
        assertSame(Block.MemoryType.EXCLUSIVE, data.memoryType());
        assertFalse(data.data().isDirect());
        cache.returnBlock(key(2), data);
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void metaOnlyNeverCachesDataBlocks() {
        CombinedBlockCache cache = CombinedBlockCache.metaOnly(l1);
        cache.cacheBlock(key(1), block(BlockType.INDEX, 1, 2000));
        cache.cacheBlock(key(2), block(BlockType.DATA, 2, 5000));
        assertTrue(cache.l2().isEmpty());
        assertEquals(1, cache.blockCount());
        assertNull(cache.getBlock(key(2), true, false, true));
        Block meta = cache.getBlock(key(1), true, false, true);
        assertNotNull(meta);
        cache.returnBlock(key(1), meta);
        assertEquals(1, cache.getStats().hitCount());
        assertEquals(1, cache.getStats().missCount());
        assertEquals(l1.capacity(), cache.capacity());
    }

    @Test
    void evictionReachesBothTiersAndIsSummed() {
        BucketCache l2 = l2(ReadPathMode.ZERO_COPY);
        CombinedBlockCache cache = new CombinedBlockCache(l1, l2);
        for (int id = 0; id < 6; id++) {
            cache.cacheBlock(key(id), block(id % 2 == 0 ? BlockType.INDEX : BlockType.DATA, id, 3000));
        }
        assertTrue(cache.evictBlock(key(0)));
        assertTrue(cache.evictBlock(key(1)));
        assertFalse(cache.evictBlock(key(99)));
        // ids 2..5 remain; key(id) files are "store-" + id % 3: ids 2 and 5 share one
        assertEquals(2, cache.evictBlocksByFile(key(2).fileName()));
        assertEquals(2, cache.blockCount());
        assertEquals(4, cache.getStats().evictedBlockCount());
        cache.shutdown();
        assertEquals(0, cache.blockCount());
        assertEquals(0, l2.usedSize());
    }
}
