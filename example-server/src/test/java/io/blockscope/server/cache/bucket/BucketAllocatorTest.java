package io.blockscope.server.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.bucket.BucketAllocator.IndexStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BucketAllocatorTest {

    private static final int K = 1024;

    @Test
    void defaultClassesAreHBasesWithAKilobyteOfHeadroom() {
        assertArrayEquals(
                new int[] {
                    5 * K, 9 * K, 17 * K, 33 * K, 41 * K, 49 * K, 57 * K, 65 * K, 97 * K, 129 * K, 193 * K, 257 * K,
                    385 * K, 513 * K
                },
                BucketAllocator.defaultSlotSizes());
        assertEquals(4L * 513 * K, BucketAllocator.bucketSizeFor(BucketAllocator.defaultSlotSizes()));
    }

    @Test
    void blocksGoToTheSmallestClassThatFits() {
        BucketAllocator allocator = new BucketAllocator(8L << 20, BucketAllocator.defaultSlotSizes());
        assertEquals(0, allocator.sizeClassOf(1));
        assertEquals(0, allocator.sizeClassOf(5 * K));
        assertEquals(1, allocator.sizeClassOf(5 * K + 1));
        assertEquals(7, allocator.sizeClassOf(64 * K)); // a default 64 KB block takes a 65 KB slot
        assertEquals(13, allocator.sizeClassOf(513 * K));
        assertEquals(-1, allocator.sizeClassOf(513 * K + 1));
    }

    @Test
    void perClassStatisticsAreExactAfterAKnownSequence() {
        int[] classes = {4 * K, 8 * K, 16 * K};
        BucketAllocator allocator = new BucketAllocator(3 * 64 * K + 100, classes); // 3 buckets of 64 KB
        assertEquals(64 * K, allocator.bucketSize());
        assertEquals(3, allocator.bucketCount());
        assertEquals(3 * 64 * K, allocator.capacity(), "a partial bucket is not used");

        long a = allocator.allocate(3000); // 4 KB class: takes bucket 0, 16 slots
        long b = allocator.allocate(4 * K);
        long c = allocator.allocate(5000); // 8 KB class: bucket 1, 8 slots
        assertStats(allocator.indexStatistics()[0], 4 * K, 16, 2);
        assertStats(allocator.indexStatistics()[1], 8 * K, 8, 1);
        assertStats(allocator.indexStatistics()[2], 16 * K, 0, 0);
        assertEquals(1, allocator.freeBucketCount());
        assertEquals(3, allocator.usedSlots());
        assertEquals(2 * 4 * K + 8 * K, allocator.usedBytes());
        assertEquals(0, allocator.bucketOf(a));
        assertEquals(0, allocator.bucketOf(b));
        assertEquals(1, allocator.bucketOf(c));
        assertEquals(2, allocator.usedSlotsInBucket(0));

        assertEquals(4 * K, allocator.free(a));
        assertStats(allocator.indexStatistics()[0], 4 * K, 16, 1);
        assertEquals(4 * K, allocator.free(b));
        // its last slot freed, bucket 0 went back to the pool
        assertStats(allocator.indexStatistics()[0], 4 * K, 0, 0);
        assertEquals(2, allocator.freeBucketCount());
        assertEquals(-1, allocator.sizeClassOfBucket(0));

        long d = allocator.allocate(16 * K); // 16 KB class takes a free bucket
        assertEquals(2, allocator.sizeClassOf(16 * K));
        assertStats(allocator.indexStatistics()[2], 16 * K, 4, 1);
        assertEquals(2, allocator.sizeClassOfBucket(allocator.bucketOf(d)));
        IndexStatistics s = allocator.indexStatistics()[2];
        assertEquals(3, s.freeCount());
        assertEquals(16 * K, s.usedBytes());
        assertEquals(3 * 16 * K, s.freeBytes());
    }

    private static void assertStats(IndexStatistics s, long itemSize, long total, long used) {
        assertEquals(itemSize, s.itemSize());
        assertEquals(total, s.totalCount(), "total slots of " + itemSize);
        assertEquals(used, s.usedCount(), "used slots of " + itemSize);
        assertEquals(total - used, s.freeCount());
        assertEquals(used * itemSize, s.usedBytes());
        assertEquals((total - used) * itemSize, s.freeBytes());
    }

    @Test
    void anEmptiedBucketServesAnotherClass() {
        int[] classes = {4 * K, 16 * K};
        BucketAllocator allocator = new BucketAllocator(64 * K, classes); // one bucket
        List<Long> small = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            small.add(allocator.allocate(4 * K));
        }
        assertEquals(BucketAllocator.NO_SPACE, allocator.allocate(4 * K), "bucket full");
        assertEquals(BucketAllocator.NO_SPACE, allocator.allocate(16 * K), "no bucket for the other class");
        allocator.free(small.remove(0));
        assertEquals(BucketAllocator.NO_SPACE, allocator.allocate(16 * K), "one free slot does not free the bucket");
        for (long offset : small) {
            allocator.free(offset);
        }
        assertNotEquals(BucketAllocator.NO_SPACE, allocator.allocate(16 * K));
        assertStats(allocator.indexStatistics()[1], 16 * K, 4, 1);
        assertStats(allocator.indexStatistics()[0], 4 * K, 0, 0);
    }

    @Test
    void slotsNeverOverlapAndStayInsideTheirBucket() {
        int[] classes = {3000, 7000, 20000};
        BucketAllocator allocator = new BucketAllocator(10 * 80000L, classes);
        SplittableRandom random = new SplittableRandom(42);
        TreeMap<Long, Integer> live = new TreeMap<>(); // offset -> slot size
        for (int step = 0; step < 20000; step++) {
            if (!live.isEmpty() && random.nextInt(3) == 0) {
                Long offset = live.keySet().stream()
                        .skip(random.nextInt(live.size()))
                        .findFirst()
                        .orElseThrow();
                assertEquals((int) live.remove(offset), allocator.free(offset));
            } else {
                int length = 1 + random.nextInt(20000);
                long offset = allocator.allocate(length);
                if (offset == BucketAllocator.NO_SPACE) {
                    continue;
                }
                int slot = allocator.slotSize(allocator.sizeClassOf(length));
                assertEquals(
                        allocator.bucketOf(offset), allocator.bucketOf(offset + slot - 1), "slot crosses a bucket");
                var below = live.floorEntry(offset);
                assertTrue(below == null || below.getKey() + below.getValue() <= offset, "overlaps the slot below");
                var above = live.ceilingEntry(offset);
                assertTrue(above == null || offset + slot <= above.getKey(), "overlaps the slot above");
                live.put(offset, slot);
            }
            assertEquals(live.size(), allocator.usedSlots());
        }
        assertEquals(live.values().stream().mapToLong(Integer::longValue).sum(), allocator.usedBytes());
    }

    @Test
    void doubleAndStrayFreesFail() {
        BucketAllocator allocator = new BucketAllocator(64 * K, new int[] {4 * K, 16 * K});
        long a = allocator.allocate(100);
        allocator.allocate(100);
        allocator.free(a);
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> allocator.free(a));
        assertTrue(twice.getMessage().contains("double free"), twice.getMessage());
        assertThrows(IllegalStateException.class, () -> allocator.free(a + 1), "not a slot start");
        assertThrows(IllegalStateException.class, () -> allocator.free(64 * K), "outside");
    }

    @Test
    void aBlockLargerThanTheLargestClassIsRefused() {
        BucketAllocator allocator = new BucketAllocator(64 * K, new int[] {4 * K, 16 * K});
        IllegalArgumentException failure =
                assertThrows(IllegalArgumentException.class, () -> allocator.allocate(16 * K + 1));
        assertTrue(failure.getMessage().contains("larger than the largest"), failure.getMessage());
    }

    @Test
    void badConfigurationsAreExplained() {
        IllegalArgumentException tooSmall = assertThrows(
                IllegalArgumentException.class, () -> new BucketAllocator(64 * K - 1, new int[] {4 * K, 16 * K}));
        assertTrue(tooSmall.getMessage().contains("smaller than one bucket"), tooSmall.getMessage());
        IllegalArgumentException unordered = assertThrows(
                IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[] {16 * K, 4 * K}));
        assertTrue(unordered.getMessage().contains("ascending"), unordered.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[0]));
        assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[] {0, 4 * K}));
    }
}
