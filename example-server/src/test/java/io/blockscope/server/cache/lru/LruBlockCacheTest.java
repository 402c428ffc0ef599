package io.blockscope.server.cache.lru;

import static io.blockscope.server.cache.TestBlocks.dataBlock;
import static io.blockscope.server.cache.TestBlocks.intact;
import static io.blockscope.server.cache.TestBlocks.key;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockPriority;
import io.blockscope.server.cache.ConcurrentRun;
import io.blockscope.server.cache.TestBlocks;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LruBlockCacheTest {

    private static final int LENGTH = 1000;
    private static final long CHARGE = LruBlockCache.chargeOf(LENGTH);

    /** A cache that holds exactly {@code blocks} blocks of {@link #LENGTH} bytes. */
    private static LruBlockCache cacheOf(int blocks) {
        return new LruBlockCache(blocks * CHARGE);
    }

    private static void cache(LruBlockCache cache, int id) {
        cache.cacheBlock(key(id), dataBlock(id, LENGTH));
    }

    private static void hit(LruBlockCache cache, int id) {
        Block b = cache.getBlock(key(id), true, false, true);
        assertNotNull(b, "block " + id + " should be cached");
        cache.returnBlock(key(id), b);
    }

    @Test
    void hitsAreSharedViewsOfTheCachesOwnHeapCopy() {
        LruBlockCache cache = cacheOf(10);
        Block source = dataBlock(1, LENGTH);
        byte[] original = TestBlocks.bytes(source);
        cache.cacheBlock(key(1), source);
        source.data().put(100, new byte[] {1, 2, 3}, 0, 3); // the caller's block is still the caller's

        Block a = cache.getBlock(key(1), true, false, true);
        Block b = cache.getBlock(key(1), true, false, true);
        assertNotSame(a, b, "each checkout is a distinct object");
        assertSame(Block.MemoryType.SHARED, a.memoryType());
        assertFalse(a.data().isDirect());
        assertArrayEquals(original, TestBlocks.bytes(a));
        assertTrue(intact(b, 1));
        assertEquals(2, cache.referenceCount(key(1)));

        cache.returnBlock(key(1), a);
        cache.returnBlock(key(1), b);
        assertEquals(0, cache.referenceCount(key(1)));
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void statisticsCountEachLookupOnce() {
        LruBlockCache cache = cacheOf(10);
        cache(cache, 1);
        assertNull(cache.getBlock(key(2), true, false, true));
        assertNull(cache.getBlock(key(2), true, true, true)); // a repeat is not a second miss
        assertNull(cache.getBlock(key(2), true, false, false)); // counted by a wrapping cache
        hit(cache, 1);
        Block uncounted = cache.getBlock(key(1), true, false, false);
        cache.returnBlock(key(1), uncounted);
        assertEquals(1, cache.getStats().hitCount());
        assertEquals(1, cache.getStats().missCount());
        assertEquals(0.5, cache.getStats().hitRatio());
    }

    @Test
    void blocksArePromotedOnTheirFirstHit() {
        LruBlockCache cache = cacheOf(10);
        cache(cache, 1);
        cache.cacheBlock(key(2), dataBlock(2, LENGTH), true);
        assertEquals(BlockPriority.SINGLE, cache.priorityOf(key(1)));
        assertEquals(BlockPriority.MEMORY, cache.priorityOf(key(2)));
        hit(cache, 1);
        hit(cache, 2);
        assertEquals(BlockPriority.MULTI, cache.priorityOf(key(1)));
        assertEquals(BlockPriority.MEMORY, cache.priorityOf(key(2)), "in-memory blocks stay in their group");
        assertNull(cache.priorityOf(key(3)));
    }

    @Test
    void sizeStaysUnderCapacity() {
        LruBlockCache cache = cacheOf(20);
        for (int id = 0; id < 200; id++) {
            cache(cache, id);
            assertTrue(cache.usedSize() <= cache.capacity(), "after insert " + id + ": " + cache);
            assertEquals(cache.blockCount() * CHARGE, cache.usedSize());
        }
        assertTrue(cache.containsBlock(key(199)), "the newest block is cached");
        assertTrue(cache.getStats().evictedBlockCount() >= 180);
    }

    @Test
    void aScanOfSingleAccessBlocksDoesNotFlushHotBlocks() {
        LruBlockCache cache = cacheOf(20);
        for (int hot = 0; hot < 8; hot++) {
            cache(cache, hot);
            hit(cache, hot);
        }
        for (int scanned = 100; scanned < 200; scanned++) {
            cache(cache, scanned);
        }
        for (int hot = 0; hot < 8; hot++) {
            assertTrue(cache.containsBlock(key(hot)), "hot block " + hot + " was evicted by a scan");
        }
        assertFalse(cache.containsBlock(key(100)), "the oldest scanned block goes first");
    }

    @Test
    void theLeastRecentlyUsedBlockOfTheGroupOverItsShareGoesFirst() {
        LruBlockCache cache = cacheOf(20);
        for (int id = 0; id < 19; id++) {
            cache(cache, id);
            hit(cache, id); // all multi-access, far over the multi share
        }
        hit(cache, 0); // block 0 is now the most recently used
        cache(cache, 19); // 20 blocks > 99%: evict one, from the multi group
        assertTrue(cache.containsBlock(key(0)));
        assertFalse(cache.containsBlock(key(1)), "block 1 is the least recently used multi-access block");
        assertTrue(cache.containsBlock(key(19)), "the single group is under its share");
    }

    @Test
    void inMemoryBlocksWithinTheirShareSurviveAScan() {
        LruBlockCache cache = cacheOf(20);
        for (int id = 0; id < 5; id++) {
            cache.cacheBlock(key(id), dataBlock(id, LENGTH), true); // 5 of 20 = the in-memory share
        }
        for (int scanned = 100; scanned < 300; scanned++) {
            cache(cache, scanned);
        }
        for (int id = 0; id < 5; id++) {
            assertTrue(cache.containsBlock(key(id)), "in-memory block " + id);
        }
    }

    @Test
    void anEvictedBlockStaysReadableUntilReturned() {
        LruBlockCache cache = cacheOf(10);
        cache(cache, 1);
        Block held = cache.getBlock(key(1), true, false, true);
        assertTrue(cache.evictBlock(key(1)));
        assertFalse(cache.containsBlock(key(1)));
        assertNull(cache.getBlock(key(1), true, false, true));
        assertEquals(1, cache.retiredBlockCount());
        assertEquals(1, cache.outstandingReferences());
        for (int id = 2; id < 50; id++) {
            cache(cache, id);
        }
        assertTrue(intact(held, 1));
        cache.returnBlock(key(1), held);
        assertEquals(0, cache.retiredBlockCount());
        assertEquals(0, cache.outstandingReferences());
        assertThrows(IllegalStateException.class, () -> cache.returnBlock(key(1), held), "returned twice");
    }

    @Test
    void returningABlockFromElsewhereFails() {
        LruBlockCache cache = cacheOf(10);
        cache(cache, 1);
        Block foreign = dataBlock(1, LENGTH).withMemoryType(Block.MemoryType.SHARED);
        IllegalStateException failure =
                assertThrows(IllegalStateException.class, () -> cache.returnBlock(key(1), foreign));
        assertTrue(failure.getMessage().contains(key(1).toString()));
        cache.returnBlock(key(1), dataBlock(1, LENGTH)); // an exclusive block is the reader's: a no-op
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void evictsAllBlocksOfAFile() {
        LruBlockCache cache = cacheOf(30);
        for (int id = 0; id < 9; id++) {
            cache(cache, id);
        }
        BlockCacheKey sample = key(4);
        assertEquals(3, cache.evictBlocksByFile(sample.fileName()));
        assertFalse(cache.containsBlock(sample));
        assertEquals(6, cache.blockCount());
        assertEquals(6 * CHARGE, cache.usedSize());
        assertEquals(3, cache.getStats().evictedBlockCount());
    }

    @Test
    void aBlockLargerThanTheCacheIsNotCached() {
        LruBlockCache cache = new LruBlockCache(CHARGE - 1);
        cache(cache, 1);
        assertFalse(cache.containsBlock(key(1)));
        assertEquals(1, cache.rejectedBlockCount());
        assertEquals(0, cache.usedSize());
    }

    @Test
    void shutdownEmptiesTheCache() {
        LruBlockCache cache = cacheOf(10);
        cache(cache, 1);
        cache.shutdown();
        assertEquals(0, cache.blockCount());
        assertEquals(0, cache.usedSize());
        cache(cache, 2);
        assertEquals(0, cache.blockCount(), "no inserts after shutdown");
    }

    @Test
    void rejectsANonPositiveCapacity() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> new LruBlockCache(0));
        assertTrue(failure.getMessage().contains("positive"));
    }

    @Test
    void concurrentReadersInsertersAndEvictorsLeaveExactBooks() throws Exception {
        LruBlockCache cache = cacheOf(40);
        AtomicLong corrupt = new AtomicLong();
        AtomicLong hits = new AtomicLong();
        ConcurrentRun run = new ConcurrentRun();
        for (int t = 0; t < 2; t++) {
            run.repeat("reader-" + t, t, random -> {
                int id = random.nextInt(200);
                Block b = cache.getBlock(key(id), true, false, true);
                if (b != null) {
                    try {
                        hits.incrementAndGet();
                        if (!intact(b, id)) {
                            corrupt.incrementAndGet();
                        }
                    } finally {
                        cache.returnBlock(key(id), b);
                    }
                }
            });
        }
        run.repeat("writer", 7, random -> {
            int id = random.nextInt(200);
            if (random.nextInt(4) == 0) {
                cache.evictBlock(key(id));
            } else {
                cache(cache, id);
            }
        });
        run.runFor(Duration.ofSeconds(1));
        assertEquals(0, corrupt.get());
        assertTrue(hits.get() > 0);
        assertEquals(0, cache.outstandingReferences());
        assertEquals(0, cache.retiredBlockCount());
        assertEquals(cache.blockCount() * CHARGE, cache.usedSize());
        assertTrue(cache.usedSize() <= cache.capacity());
    }
}
