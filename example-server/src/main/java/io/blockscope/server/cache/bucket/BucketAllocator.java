package io.blockscope.server.cache.bucket;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * Hands out slots of an io engine's address space to blocks, by block-size class.
 *
 * <p>The space is cut into buckets of {@link #bucketSize()} bytes (four times the largest class, so
 * even the largest blocks share a bucket). A bucket is free until a class needs room; it is then
 * carved into equal slots of that class's size. A block goes into a slot of the smallest class that
 * fits it. When its last slot is freed, a bucket returns to the free pool and can serve any class:
 * that is how the cache follows a workload whose block sizes change.
 *
 * <p>Invariants, under this object's monitor:
 * <ul>
 *   <li>A bucket is in the free pool iff it has no class; an assigned bucket has at least one used
 *       slot (it goes back to the pool when its last slot is freed).</li>
 *   <li>A class's {@code withFreeSlots} set holds exactly its buckets that have a free slot.</li>
 *   <li>A class's {@code totalSlots} / {@code usedSlots} are the sums over its buckets.</li>
 * </ul>
 * All methods are synchronized: allocation happens on cache inserts and frees on evictions, far
 * rarer than hits, which never come here.
 */
public final class BucketAllocator {

    /** HBase's default classes: 4 KB to 512 KB blocks, each with 1 KB of headroom. */
    private static final int[] DEFAULT_SLOT_SIZES = {
        5 << 10, 9 << 10, 17 << 10, 33 << 10, 41 << 10, 49 << 10, 57 << 10,
        65 << 10, 97 << 10, 129 << 10, 193 << 10, 257 << 10, 385 << 10, 513 << 10
    };

    /** How many of the largest blocks one bucket holds. */
    public static final int LARGEST_SLOTS_PER_BUCKET = 4;

    /** What {@link #allocate} returns when no slot is free. */
    public static final long NO_SPACE = -1;

    private final SizeClass[] classes;
    private final Bucket[] buckets;
    private final long bucketSize;
    private final ArrayDeque<Bucket> freeBuckets = new ArrayDeque<>();

    /**
     * @param capacity  bytes of address space; the allocator uses the whole buckets that fit in it
     * @param slotSizes the block-size classes, strictly ascending
     * @throws IllegalArgumentException when the classes are not strictly ascending and positive, or
     *                                  the capacity does not hold a single bucket
     */
    public BucketAllocator(long capacity, int[] slotSizes) {
        validateSlotSizes(slotSizes);
        this.bucketSize = bucketSizeFor(slotSizes);
        long count = capacity / bucketSize;
        if (count < 1) {
            throw new IllegalArgumentException("bucket cache size " + capacity + " bytes is smaller than one bucket ("
                    + bucketSize + " bytes = " + LARGEST_SLOTS_PER_BUCKET + " x the largest block-size class of "
                    + slotSizes[slotSizes.length - 1] + " bytes): raise the L2 size or lower the largest class");
        }
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bucket cache size " + capacity + " bytes needs too many buckets");
        }
        this.classes = new SizeClass[slotSizes.length];
        for (int i = 0; i < slotSizes.length; i++) {
            classes[i] = new SizeClass(slotSizes[i], (int) (bucketSize / slotSizes[i]));
        }
        this.buckets = new Bucket[(int) count];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new Bucket(i * bucketSize);
            freeBuckets.add(buckets[i]);
        }
    }

    /** HBase's default classes (5 KB ... 513 KB), a fresh copy. */
    public static int[] defaultSlotSizes() {
        return DEFAULT_SLOT_SIZES.clone();
    }

    /** Size of every bucket for these classes: room for {@link #LARGEST_SLOTS_PER_BUCKET} of the largest. */
    public static long bucketSizeFor(int[] slotSizes) {
        validateSlotSizes(slotSizes);
        return (long) LARGEST_SLOTS_PER_BUCKET * slotSizes[slotSizes.length - 1];
    }

    private static void validateSlotSizes(int[] slotSizes) {
        if (slotSizes.length == 0) {
            throw new IllegalArgumentException("at least one bucket size class is needed");
        }
        for (int i = 0; i < slotSizes.length; i++) {
            if (slotSizes[i] <= 0 || (i > 0 && slotSizes[i] <= slotSizes[i - 1])) {
                throw new IllegalArgumentException("bucket size classes must be positive and strictly ascending, got "
                        + Arrays.toString(slotSizes));
            }
        }
    }

    /** Index of the smallest class that fits {@code length} bytes, or -1 when none does. */
    public int sizeClassOf(int length) {
        for (int i = 0; i < classes.length; i++) {
            if (classes[i].slotSize >= length) {
                return i;
            }
        }
        return -1;
    }

    /** Slot size of class {@code sizeClass}. */
    public int slotSize(int sizeClass) {
        return classes[sizeClass].slotSize;
    }

    /** Number of classes. */
    public int sizeClassCount() {
        return classes.length;
    }

    /** The largest block this allocator can place. */
    public int largestSlotSize() {
        return classes[classes.length - 1].slotSize;
    }

    public long bucketSize() {
        return bucketSize;
    }

    public int bucketCount() {
        return buckets.length;
    }

    /** Bytes managed: whole buckets only. */
    public long capacity() {
        return buckets.length * bucketSize;
    }

    /** The bucket holding {@code offset}. */
    public int bucketOf(long offset) {
        return (int) (offset / bucketSize);
    }

    /**
     * Reserves a slot of the smallest class that fits {@code length} bytes.
     *
     * @return the slot's offset, or {@link #NO_SPACE} when that class has no free slot and no bucket is free
     * @throws IllegalArgumentException when the block is larger than the largest class
     */
    public synchronized long allocate(int length) {
        int index = sizeClassOf(length);
        if (index < 0) {
            throw new IllegalArgumentException(
                    "a block of " + length + " bytes is larger than the largest bucket size class (" + largestSlotSize()
                            + " bytes): add a larger class");
        }
        SizeClass sizeClass = classes[index];
        Bucket bucket;
        Iterator<Bucket> partial = sizeClass.withFreeSlots.iterator();
        if (partial.hasNext()) {
            bucket = partial.next();
        } else {
            bucket = freeBuckets.poll();
            if (bucket == null) {
                return NO_SPACE;
            }
            bucket.assign(index, sizeClass);
            sizeClass.totalSlots += sizeClass.slotsPerBucket;
            sizeClass.withFreeSlots.add(bucket);
        }
        int slot = bucket.take();
        sizeClass.usedSlots++;
        if (bucket.isFull()) {
            sizeClass.withFreeSlots.remove(bucket);
        }
        return bucket.base + (long) slot * sizeClass.slotSize;
    }

    /**
     * Frees the slot at {@code offset}.
     *
     * @return the slot's size
     * @throws IllegalStateException when no slot starts at {@code offset} or it is already free
     */
    public synchronized int free(long offset) {
        if (offset < 0 || offset >= capacity()) {
            throw new IllegalStateException("free(" + offset + "): outside the allocator's " + capacity() + " bytes");
        }
        Bucket bucket = buckets[bucketOf(offset)];
        if (bucket.sizeClass < 0) {
            throw new IllegalStateException("free(" + offset + "): bucket " + bucketOf(offset) + " is not in use");
        }
        SizeClass sizeClass = classes[bucket.sizeClass];
        long local = offset - bucket.base;
        if (local % sizeClass.slotSize != 0 || local / sizeClass.slotSize >= sizeClass.slotsPerBucket) {
            throw new IllegalStateException(
                    "free(" + offset + "): no slot of " + sizeClass.slotSize + " bytes starts there");
        }
        boolean wasFull = bucket.isFull();
        bucket.give((int) (local / sizeClass.slotSize), offset);
        sizeClass.usedSlots--;
        if (bucket.usedCount == 0) {
            sizeClass.withFreeSlots.remove(bucket);
            sizeClass.totalSlots -= sizeClass.slotsPerBucket;
            bucket.release();
            freeBuckets.push(bucket);
        } else if (wasFull) {
            sizeClass.withFreeSlots.add(bucket);
        }
        return sizeClass.slotSize;
    }

    /** Per-class occupancy, one entry per class in ascending size. Buckets in the free pool count in no class. */
    public synchronized IndexStatistics[] indexStatistics() {
        IndexStatistics[] stats = new IndexStatistics[classes.length];
        for (int i = 0; i < classes.length; i++) {
            stats[i] = new IndexStatistics(classes[i].slotSize, classes[i].totalSlots, classes[i].usedSlots);
        }
        return stats;
    }

    /** Buckets not assigned to any class. */
    public synchronized int freeBucketCount() {
        return freeBuckets.size();
    }

    /** Slots in use, over all classes. */
    public synchronized long usedSlots() {
        long used = 0;
        for (SizeClass c : classes) {
            used += c.usedSlots;
        }
        return used;
    }

    /** Bytes of the slots in use. */
    public synchronized long usedBytes() {
        long used = 0;
        for (SizeClass c : classes) {
            used += c.usedSlots * c.slotSize;
        }
        return used;
    }

    /** Used slots in bucket {@code bucket}. */
    public synchronized int usedSlotsInBucket(int bucket) {
        return buckets[bucket].usedCount;
    }

    /** The class bucket {@code bucket} is carved for, or -1 when it is free. */
    public synchronized int sizeClassOfBucket(int bucket) {
        return buckets[bucket].sizeClass;
    }

    /**
     * Occupancy of one block-size class.
     *
     * @param itemSize   the class's slot size in bytes
     * @param totalCount slots in the buckets currently carved for this class
     * @param usedCount  slots holding a block
     */
    public record IndexStatistics(long itemSize, long totalCount, long usedCount) {

        public long freeCount() {
            return totalCount - usedCount;
        }

        public long usedBytes() {
            return usedCount * itemSize;
        }

        public long freeBytes() {
            return freeCount() * itemSize;
        }
    }

    private static final class SizeClass {
        final int slotSize;
        final int slotsPerBucket;
        /** Buckets of this class with at least one free slot, in the order they got one. */
        final LinkedHashSet<Bucket> withFreeSlots = new LinkedHashSet<>();

        long totalSlots;
        long usedSlots;

        SizeClass(int slotSize, int slotsPerBucket) {
            this.slotSize = slotSize;
            this.slotsPerBucket = slotsPerBucket;
        }
    }

    private static final class Bucket {
        final long base;
        int sizeClass = -1;
        int slotCount;
        /** Stack of free slot numbers; the top is {@code freeSlots[freeCount - 1]}. */
        int[] freeSlots;

        int freeCount;
        int usedCount;
        /** Which slots hold a block: catches double frees. */
        BitSet used;

        Bucket(long base) {
            this.base = base;
        }

        void assign(int index, SizeClass c) {
            sizeClass = index;
            slotCount = c.slotsPerBucket;
            freeSlots = new int[slotCount];
            for (int i = 0; i < slotCount; i++) {
                freeSlots[i] = slotCount - 1 - i; // low slots first
            }
            freeCount = slotCount;
            usedCount = 0;
            used = new BitSet(slotCount);
        }

        void release() {
            sizeClass = -1;
            freeSlots = null;
            used = null;
            slotCount = 0;
            freeCount = 0;
        }

        boolean isFull() {
            return freeCount == 0;
        }

        int take() {
            int slot = freeSlots[--freeCount];
            used.set(slot);
            usedCount++;
            return slot;
        }

        void give(int slot, long offset) {
            if (!used.get(slot)) {
                throw new IllegalStateException("free(" + offset + "): the slot is already free (double free)");
            }
            used.clear(slot);
            freeSlots[freeCount++] = slot;
            usedCount--;
        }
    }
}
