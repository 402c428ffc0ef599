package io.blockscope.server.cache.bucket;

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

import io.blockscope.server.buffer.MultiByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockPriority;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.cache.TestBlocks;
import io.blockscope.server.cache.bucket.BucketAllocator.IndexStatistics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BucketCacheTest {

    private static final int K = 1024;
    /** One class of 8 KB slots; a 32 KB cache is one bucket of four slots. */
    private static final int[] EIGHT_K = {8 * K};

    @TempDir
    Path dir;

    private static BucketCache offheap(int[] classes, long capacity, ReadPathMode mode) {
        return new BucketCache(ByteBufferIOEngine.offheap(capacity), classes, mode);
    }

    private static void cache(BucketCache cache, int id, int length) {
        cache.cacheBlock(key(id), dataBlock(id, length));
    }

    private static Block get(BucketCache cache, int id) {
        return cache.getBlock(key(id), true, false, true);
    }

    private static void hit(BucketCache cache, int id) {
        Block b = get(cache, id);
        assertNotNull(b, "block " + id + " should be cached");
        cache.returnBlock(key(id), b);
    }

    @Test
    void zeroCopyHitsAreDistinctSharedViewsOfDirectMemory() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 5000);
        Block a = get(cache, 1);
        Block b = get(cache, 1);
        assertNotSame(a, b, "one Block object per checkout");
        assertSame(a.data(), b.data(), "both view the same slot: nothing is copied per hit");
        assertSame(Block.MemoryType.SHARED, a.memoryType());
        assertTrue(a.data().isDirect());
        assertTrue(intact(a, 1));
        assertEquals(2, cache.referenceCount(key(1)));
        cache.returnBlock(key(1), a);
        cache.returnBlock(key(1), b);
        assertEquals(0, cache.referenceCount(key(1)));
        assertEquals(0, cache.outstandingReferences());
        assertTrue(cache.servesViews());
    }

    @Test
    void heapEngineZeroCopyHitsAreSharedHeapViews() {
        BucketCache cache = new BucketCache(ByteBufferIOEngine.heap(32 * K), EIGHT_K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 5000);
        Block a = get(cache, 1);
        assertSame(Block.MemoryType.SHARED, a.memoryType());
        assertFalse(a.data().isDirect());
        assertTrue(intact(a, 1));
        cache.returnBlock(key(1), a);
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void copyModeHitsAreExclusiveHeapCopies() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.COPY);
        cache(cache, 1, 5000);
        Block a = get(cache, 1);
        Block b = get(cache, 1);
        assertSame(Block.MemoryType.EXCLUSIVE, a.memoryType());
        assertFalse(a.data().isDirect(), "copied onto the heap");
        assertNotSame(a.data(), b.data(), "every hit is a copy of its own");
        assertArrayEquals(TestBlocks.bytes(dataBlock(1, 5000)), TestBlocks.bytes(a));
        assertEquals(0, cache.referenceCount(key(1)), "a copy holds no reference on the slot");
        a.data().putLong(0, -1); // scribbling on a copy touches neither the cache nor other copies
        assertTrue(intact(b, 1));
        cache.returnBlock(key(1), a); // a no-op
        cache.returnBlock(key(1), b);
        assertTrue(cache.evictBlock(key(1)));
        assertEquals(0, cache.usedSize(), "nothing pinned the slot");
        assertEquals(ReadPathMode.COPY, cache.readPathMode());
        assertFalse(cache.servesViews());
    }

    @ParameterizedTest
    @EnumSource(ReadPathMode.class)
    void theFileEngineServesExclusiveHeapCopies(ReadPathMode mode) {
        Path file = dir.resolve("l2-" + mode.label());
        BucketCache cache = new BucketCache(FileIOEngine.open(file, 64 * K, true), EIGHT_K, mode);
        for (int id = 0; id < 8; id++) {
            cache(cache, id, 4000 + id * 500);
        }
        for (int id = 0; id < 8; id++) {
            Block b = get(cache, id);
            assertSame(Block.MemoryType.EXCLUSIVE, b.memoryType());
            assertFalse(b.data().isDirect());
            assertEquals(4000 + id * 500, b.length());
            assertTrue(intact(b, id), "block " + id);
            cache.returnBlock(key(id), b);
        }
        assertEquals(0, cache.outstandingReferences());
        cache.shutdown();
        assertFalse(Files.exists(file), "the engine's file goes with the cache");
    }

    @Test
    void anUnreadableSlotIsAMissAndIsEvicted() {
        BucketCache cache = new BucketCache(
                FileIOEngine.open(dir.resolve("broken"), 32 * K, true), EIGHT_K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 5000);
        cache.ioEngine().close(); // the file is gone from under the cache
        assertNull(get(cache, 1));
        assertEquals(1, cache.ioErrorCount());
        assertEquals(1, cache.getStats().missCount());
        assertFalse(cache.containsBlock(key(1)));
        assertEquals(0, cache.usedSize());
    }

    @Test
    void aReferencedBlockSurvivesEvictionUntilItsLastReturn() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY); // four slots
        cache(cache, 1, 8 * K);
        Block first = get(cache, 1);
        Block second = get(cache, 1);
        assertTrue(cache.evictBlock(key(1)));
        assertFalse(cache.containsBlock(key(1)));
        assertNull(get(cache, 1), "an evicted block cannot be checked out again");
        assertEquals(1, cache.retiredBlockCount());
        assertEquals(8 * K, cache.usedSize(), "its slot is still taken");

        // Fill the cache and force evictions: block 1's slot must not be handed out.
        for (int id = 2; id <= 6; id++) {
            cache(cache, id, 8 * K);
        }
        assertEquals(0, cache.allocationFailures());
        assertTrue(cache.getStats().evictedBlockCount() >= 3, "evictions made room for blocks 5 and 6");
        assertTrue(intact(first, 1));
        cache.returnBlock(key(1), first);
        cache(cache, 7, 8 * K);
        assertTrue(intact(second, 1), "one reference still pins the slot");
        assertEquals(4, cache.allocator().usedSlots());

        cache.returnBlock(key(1), second);
        assertEquals(0, cache.retiredBlockCount());
        assertEquals(0, cache.outstandingReferences());
        assertEquals(3 * 8 * K, cache.usedSize(), "the last return freed the slot");

        long evictedBefore = cache.getStats().evictedBlockCount();
        cache(cache, 8, 8 * K);
        assertEquals(evictedBefore, cache.getStats().evictedBlockCount(), "block 8 took the freed slot, no eviction");
        // Reading a returned view is a reader's bug; here it proves block 8 reused block 1's slot.
        assertTrue(intact(second, 8));
        assertThrows(IllegalStateException.class, () -> cache.returnBlock(key(1), second), "returned twice");
    }

    @Test
    void aBlockStraddlingTwoBuffersReadsBackIntact() {
        int million = 1_000_000;
        for (ReadPathMode mode : ReadPathMode.values()) {
            // two buckets of 4,000,000 bytes: the slot at 4,000,000 crosses the 4 MB buffer boundary
            BucketCache cache = offheap(new int[] {million}, 8L * million, mode);
            for (int id = 0; id < 8; id++) {
                cache(cache, id, million);
            }
            int straddling = 0;
            for (int id = 0; id < 8; id++) {
                Block b = get(cache, id);
                assertTrue(intact(b, id), mode + " block " + id);
                if (b.data() instanceof MultiByteBuff) {
                    assertEquals(2, b.data().bufferCount());
                    straddling++;
                }
                cache.returnBlock(key(id), b);
            }
            assertEquals(mode == ReadPathMode.ZERO_COPY ? 1 : 0, straddling, mode.label());
        }
    }

    @Test
    void defaultClassesPlaceSomeBlocksAcrossABufferBoundary() {
        // 33 KB slots: 62 to a 2052 KB bucket; the second bucket's last slot crosses 4 MB
        BucketCache cache = offheap(BucketAllocator.defaultSlotSizes(), 2 * 2052 * K, ReadPathMode.ZERO_COPY);
        int straddling = 0;
        for (int id = 0; id < 124; id++) {
            cache(cache, id, 32 * K + id);
        }
        for (int id = 0; id < 124; id++) {
            Block b = get(cache, id);
            assertTrue(intact(b, id), "block " + id);
            straddling += b.data().bufferCount() > 1 ? 1 : 0;
            cache.returnBlock(key(id), b);
        }
        assertEquals(1, straddling);
        assertEquals(124, cache.blockCount());
    }

    @Test
    void perClassStatisticsFollowTheCachedBlocks() {
        BucketCache cache = offheap(BucketAllocator.defaultSlotSizes(), 3 * 2052 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 4 * K);
        cache(cache, 2, 4 * K);
        cache(cache, 3, 64 * K);
        cache(cache, 4, 100 * K);
        IndexStatistics[] stats = cache.indexStatistics();
        assertEquals(14, stats.length);
        assertEquals(5 * K, stats[0].itemSize());
        assertEquals(2052 / 5, stats[0].totalCount());
        assertEquals(2, stats[0].usedCount());
        assertEquals(2052 / 65, stats[7].totalCount());
        assertEquals(1, stats[7].usedCount());
        assertEquals(2052 / 129, stats[9].totalCount());
        assertEquals(1, stats[9].usedCount());
        for (int c : new int[] {1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13}) {
            assertEquals(0, stats[c].totalCount(), "class " + stats[c].itemSize() + " has no bucket");
        }
        assertEquals((2 * 5 + 65 + 129) * K, cache.usedSize());
        assertEquals(2 * K + K + 29 * K, cache.wastedBytes()); // 1 KB per 4 KB block, 1 KB, 29 KB
        assertEquals(3 * 2052 * K, cache.capacity());

        cache.evictBlock(key(3));
        assertEquals(0, cache.indexStatistics()[7].totalCount(), "the 65 KB bucket went back to the pool");
        assertEquals((2 * 5 + 129) * K, cache.usedSize());
        assertEquals(2 * K + 29 * K, cache.wastedBytes());
    }

    @Test
    void aFullClassLosesBlocksFromTheGroupFurthestOverItsShare() {
        BucketCache cache =
                offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY); // shares: 1 single, 2 multi, 1 memory slot
        for (int id = 1; id <= 4; id++) {
            cache(cache, id, 8 * K);
        }
        hit(cache, 1);
        hit(cache, 2); // multi: 1, 2 (at its share); single: 3, 4 (one over)
        assertEquals(BlockPriority.MULTI, cache.priorityOf(key(1)));
        cache(cache, 5, 8 * K);
        assertFalse(cache.containsBlock(key(3)), "the oldest single-access block goes first");
        cache(cache, 6, 8 * K);
        assertFalse(cache.containsBlock(key(4)));
        hit(cache, 5); // multi: 1, 2, 5 (one over); single: 6 (at its share)
        cache(cache, 7, 8 * K);
        assertFalse(cache.containsBlock(key(1)), "now multi is over: its least recently used goes");
        for (int id : new int[] {2, 5, 6, 7}) {
            assertTrue(cache.containsBlock(key(id)), "block " + id);
        }
        assertEquals(3, cache.getStats().evictedBlockCount());
    }

    @Test
    void referencedBlocksAreNeverEvictedToMakeRoom() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        List<Block> held = new ArrayList<>();
        for (int id = 1; id <= 4; id++) {
            cache(cache, id, 8 * K);
            held.add(get(cache, id));
        }
        cache(cache, 5, 8 * K);
        assertFalse(cache.containsBlock(key(5)));
        assertEquals(1, cache.allocationFailures());
        for (int id = 1; id <= 4; id++) {
            assertTrue(intact(held.get(id - 1), id));
            cache.returnBlock(key(id), held.get(id - 1));
        }
        cache(cache, 5, 8 * K);
        assertTrue(cache.containsBlock(key(5)));
        assertEquals(1, cache.allocationFailures());
    }

    @Test
    void theColdestFreeableBucketMovesToAClassWithoutRoom() {
        BucketCache cache = offheap(new int[] {4 * K, 8 * K}, 64 * K, ReadPathMode.ZERO_COPY); // two 32 KB buckets
        for (int id = 0; id < 16; id++) {
            cache(cache, id, 4 * K); // blocks 0-7 in bucket 0, 8-15 in bucket 1
        }
        for (int id = 8; id < 16; id++) {
            hit(cache, id);
        }
        cache(cache, 100, 8 * K);
        assertTrue(cache.containsBlock(key(100)));
        for (int id = 0; id < 16; id++) {
            assertEquals(id >= 8, cache.containsBlock(key(id)), "block " + id);
        }
        assertEquals(8, cache.getStats().evictedBlockCount());
        assertEquals(8, cache.indexStatistics()[0].totalCount());
        assertEquals(4, cache.indexStatistics()[1].totalCount());
        assertEquals(1, cache.indexStatistics()[1].usedCount());
    }

    @Test
    void aBucketWithAReferencedBlockIsNotEmptiedForAnotherClass() {
        BucketCache cache = offheap(new int[] {4 * K, 8 * K}, 64 * K, ReadPathMode.ZERO_COPY);
        for (int id = 0; id < 16; id++) {
            cache(cache, id, 4 * K);
        }
        Block pinned = get(cache, 3); // bucket 0 is the colder one, but block 3 is in use
        cache(cache, 100, 8 * K);
        assertTrue(cache.containsBlock(key(100)));
        for (int id = 0; id < 16; id++) {
            assertEquals(id < 8, cache.containsBlock(key(id)), "block " + id);
        }
        assertTrue(intact(pinned, 3));
        cache.returnBlock(key(3), pinned);
    }

    @Test
    void oversizedBlocksAreNotCached() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 8 * K + 1);
        assertFalse(cache.containsBlock(key(1)));
        assertEquals(1, cache.oversizedBlockCount());
        assertEquals(0, cache.allocationFailures());
    }

    @Test
    void statisticsCountEachLookupOnce() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 100);
        assertNull(get(cache, 2));
        assertNull(cache.getBlock(key(2), true, true, true));
        assertNull(cache.getBlock(key(2), true, false, false));
        hit(cache, 1);
        cache.returnBlock(key(1), cache.getBlock(key(1), true, false, false));
        assertEquals(1, cache.getStats().hitCount());
        assertEquals(1, cache.getStats().missCount());
    }

    @Test
    void returningABlockFromElsewhereFails() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 100);
        Block foreign = dataBlock(1, 100).withMemoryType(Block.MemoryType.SHARED);
        IllegalStateException failure =
                assertThrows(IllegalStateException.class, () -> cache.returnBlock(key(1), foreign));
        assertTrue(failure.getMessage().contains("not checked out from this cache"), failure.getMessage());
        assertTrue(cache.containsBlock(key(1)), "the cache's own reference is untouched");
        assertEquals(0, cache.outstandingReferences());
    }

    @Test
    void evictsAllBlocksOfAFile() {
        BucketCache cache = offheap(EIGHT_K, 128 * K, ReadPathMode.ZERO_COPY);
        for (int id = 0; id < 9; id++) {
            cache(cache, id, 1000);
        }
        assertEquals(3, cache.evictBlocksByFile(key(1).fileName()));
        assertEquals(6, cache.blockCount());
        assertEquals(6 * 8 * K, cache.usedSize());
        assertEquals(6L * (8 * K - 1000), cache.wastedBytes());
    }

    @Test
    void shutdownEvictsEverything() {
        BucketCache cache = offheap(EIGHT_K, 32 * K, ReadPathMode.ZERO_COPY);
        cache(cache, 1, 100);
        Block held = get(cache, 1);
        cache.shutdown();
        assertEquals(0, cache.blockCount());
        assertEquals(1, cache.retiredBlockCount());
        assertTrue(intact(held, 1), "direct memory outlives the cache while referenced");
        cache.returnBlock(key(1), held);
        assertEquals(0, cache.usedSize());
        cache(cache, 2, 100);
        assertEquals(0, cache.blockCount(), "no inserts after shutdown");
    }
}
