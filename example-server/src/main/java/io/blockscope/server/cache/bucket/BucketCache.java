package io.blockscope.server.cache.bucket;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockPriority;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cache.CacheEntry;
import io.blockscope.server.cache.CacheStats;
import io.blockscope.server.cache.EntryTable;
import io.blockscope.server.cache.PriorityEviction;
import io.blockscope.server.cache.ReadPathMode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The L2 cache: blocks stored in the slots of a {@link BucketAllocator} over an {@link IOEngine}
 * (direct buffers, heap buffers or a file).
 *
 * <p><b>Read path.</b> In {@link ReadPathMode#ZERO_COPY} mode, on a memory engine, a hit returns a new
 * {@link Block.MemoryType#SHARED} block viewing the slot (a {@code MultiByteBuff} when the slot
 * straddles two 4 MB buffers) and keeps a reference until {@link #returnBlock}. In
 * {@link ReadPathMode#COPY} mode, and always on the file engine, a hit copies the whole block onto
 * the heap with {@link #copyToHeap} and returns it {@link Block.MemoryType#EXCLUSIVE}: the slot is
 * referenced only while it is being copied, and returning the copy is a no-op.
 *
 * <p><b>Lifetime.</b> An entry's slot is freed when its reference count reaches zero (see
 * {@link CacheEntry}): eviction takes the entry out of the map and drops the cache's reference, so a
 * block still checked out keeps its slot, and its bytes, until its last {@code returnBlock}.
 *
 * <p><b>Inserts are synchronous</b>: {@code cacheBlock} allocates a slot, writes the block and
 * publishes the entry before returning (HBase queues inserts to writer threads instead). When the
 * block's size class has no free slot, the inserting thread evicts, by priority group and LRU, a
 * tenth of that class's unreferenced blocks; when the class has none, it empties the least recently
 * used bucket whose blocks are all unreferenced, which then serves the class. If that finds nothing,
 * the block is not cached and {@link #allocationFailures()} counts it.
 */
public final class BucketCache implements BlockCache {

    /** Fraction of a size class's slots one eviction run frees, so that runs stay rare. */
    private static final double EVICTION_BATCH = 0.10;

    private final IOEngine engine;
    private final BucketAllocator allocator;
    private final ReadPathMode readPathMode;
    /** Whether hits are views: zero-copy mode on an engine whose memory can be viewed. */
    private final boolean servesViews;

    private final EntryTable<BucketEntry> table = new EntryTable<>(this::freeSlot);
    /** Orders accesses for LRU; one tick per insert or hit. */
    private final AtomicLong clock = new AtomicLong();

    private final ReentrantLock evictionLock = new ReentrantLock();
    private final CacheStats stats = new CacheStats();
    private final AtomicLong wastedBytes = new AtomicLong();
    private final LongAdder allocationFailures = new LongAdder();
    private final LongAdder oversizedBlocks = new LongAdder();
    private final LongAdder ioErrors = new LongAdder();
    private volatile boolean shutdown;

    /**
     * @param engine    where blocks are stored; the cache closes it on {@link #shutdown()}
     * @param slotSizes block-size classes, strictly ascending ({@link BucketAllocator#defaultSlotSizes()})
     * @param mode      how hits reach readers
     */
    public BucketCache(IOEngine engine, int[] slotSizes, ReadPathMode mode) {
        this.engine = engine;
        this.allocator = new BucketAllocator(engine.capacity(), slotSizes);
        this.readPathMode = mode;
        this.servesViews = mode == ReadPathMode.ZERO_COPY && engine.supportsSharedViews();
    }

    @Override
    public Block getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
        BucketEntry entry = table.get(key);
        if (entry == null || !entry.tryRetain()) {
            countMiss(repeat, updateCacheMetrics);
            return null;
        }
        Block block;
        if (servesViews) {
            // a new Block per checkout over the shared view; the reference is kept until returnBlock
            block = new Block(entry.type(), entry.view, Block.MemoryType.SHARED);
        } else {
            try {
                block = copyToHeap(entry.type(), entry.offset, entry.length);
            } catch (UncheckedIOException e) {
                ioErrors.increment();
                block = null;
            } finally {
                table.release(entry); // a copy needs the slot only while it is read
            }
            if (block == null) {
                if (table.remove(entry)) {
                    stats.evicted(1); // an unreadable slot is no use to anyone
                }
                countMiss(repeat, updateCacheMetrics);
                return null;
            }
        }
        entry.recordAccess(clock.incrementAndGet());
        if (updateCacheMetrics) {
            stats.hit();
        }
        return block;
    }

    private void countMiss(boolean repeat, boolean updateCacheMetrics) {
        if (updateCacheMetrics && !repeat) {
            stats.miss();
        }
    }

    /**
     * Copies a whole cached block onto the heap: the pre-HBASE-11425 read path, and the only read
     * path of the file engine. A method of its own on purpose: the blockscope agent instruments it
     * to count whole-block copies ({@code component="block"}, bytes = the returned block's length).
     *
     * @return a fresh {@link Block.MemoryType#EXCLUSIVE} heap block
     */
    Block copyToHeap(BlockType type, long offset, int length) {
        byte[] copy = new byte[length];
        engine.read(offset, copy, 0, length);
        return new Block(type, ByteBuff.wrap(copy), Block.MemoryType.EXCLUSIVE);
    }

    @Override
    public void returnBlock(BlockCacheKey key, Block block) {
        if (block.memoryType() == Block.MemoryType.EXCLUSIVE) {
            return; // a copy belongs to its reader
        }
        BucketEntry entry = table.issuerOf(key, block);
        if (entry == null) {
            throw new IllegalStateException("returnBlock(" + key + "): the block was not checked out from this cache,"
                    + " or was returned already");
        }
        table.release(entry);
    }

    @Override
    public void cacheBlock(BlockCacheKey key, Block block, boolean inMemory) {
        if (shutdown || table.get(key) != null) {
            return; // a key always names the same bytes, so there is nothing to update
        }
        int length = block.length();
        int sizeClass = allocator.sizeClassOf(length);
        if (sizeClass < 0) {
            oversizedBlocks.increment();
            return;
        }
        long offset = allocate(sizeClass, length);
        if (offset == BucketAllocator.NO_SPACE) {
            allocationFailures.increment();
            return;
        }
        try {
            engine.write(offset, block.data(), 0, length);
        } catch (UncheckedIOException e) {
            ioErrors.increment();
            allocator.free(offset);
            return;
        }
        int slotSize = allocator.slotSize(sizeClass);
        ByteBuff view = servesViews ? engine.view(offset, length) : null;
        BucketEntry entry = new BucketEntry(
                key,
                block.type(),
                BlockPriority.forInsert(inMemory),
                clock.incrementAndGet(),
                offset,
                length,
                sizeClass,
                slotSize,
                view);
        wastedBytes.addAndGet(slotSize - length);
        if (!table.insert(entry)) {
            // another thread cached the key first; this slot was never published
            wastedBytes.addAndGet(-(slotSize - length));
            allocator.free(offset);
        }
    }

    private long allocate(int sizeClass, int length) {
        long offset = allocator.allocate(length);
        if (offset != BucketAllocator.NO_SPACE) {
            return offset;
        }
        evictionLock.lock();
        try {
            offset = allocator.allocate(length); // another inserter may have made room meanwhile
            if (offset == BucketAllocator.NO_SPACE) {
                freeSpace(sizeClass);
                offset = allocator.allocate(length);
            }
            return offset;
        } finally {
            evictionLock.unlock();
        }
    }

    /** Frees slots of {@code sizeClass}, or a whole bucket for it. Runs under the eviction lock. */
    private void freeSpace(int sizeClass) {
        List<BucketEntry> cached = new ArrayList<>(table.entries());
        List<BucketEntry> sameClass = new ArrayList<>();
        for (BucketEntry e : cached) {
            if (e.sizeClass == sizeClass && e.readers() == 0) {
                sameClass.add(e);
            }
        }
        int evicted = 0;
        if (!sameClass.isEmpty()) {
            long slots = allocator.indexStatistics()[sizeClass].totalCount();
            long bytesToFree = Math.max(1, (long) (slots * EVICTION_BATCH)) * allocator.slotSize(sizeClass);
            List<BucketEntry> victims = PriorityEviction.selectVictims(
                    sameClass, PriorityEviction.chargeByPriority(cached), capacity(), bytesToFree);
            for (BucketEntry victim : victims) {
                if (table.remove(victim)) {
                    evicted++;
                }
            }
        } else {
            for (BucketEntry victim : coldestEvictableBucket(cached)) {
                if (table.remove(victim)) {
                    evicted++;
                }
            }
        }
        if (evicted > 0) {
            stats.evicted(evicted);
        }
    }

    /** The entries of the least recently used bucket whose every used slot holds an unreferenced block. */
    private List<BucketEntry> coldestEvictableBucket(List<BucketEntry> cached) {
        int[] evictable = new int[allocator.bucketCount()];
        long[] newestAccess = new long[allocator.bucketCount()];
        for (BucketEntry e : cached) {
            if (e.readers() == 0) {
                int b = allocator.bucketOf(e.offset);
                evictable[b]++;
                newestAccess[b] = Math.max(newestAccess[b], e.lastAccess());
            }
        }
        int coldest = -1;
        for (int b = 0; b < evictable.length; b++) {
            if (evictable[b] > 0
                    && evictable[b] == allocator.usedSlotsInBucket(b)
                    && (coldest < 0 || newestAccess[b] < newestAccess[coldest])) {
                coldest = b;
            }
        }
        List<BucketEntry> victims = new ArrayList<>();
        if (coldest >= 0) {
            for (BucketEntry e : cached) {
                if (allocator.bucketOf(e.offset) == coldest) {
                    victims.add(e);
                }
            }
        }
        return victims;
    }

    private void freeSlot(BucketEntry entry) {
        allocator.free(entry.offset);
        wastedBytes.addAndGet(-(entry.slotSize - entry.length));
    }

    @Override
    public boolean evictBlock(BlockCacheKey key) {
        BucketEntry entry = table.get(key);
        if (entry != null && table.remove(entry)) {
            stats.evicted(1);
            return true;
        }
        return false;
    }

    @Override
    public int evictBlocksByFile(String fileName) {
        int evicted = table.removeFile(fileName, table::remove);
        if (evicted > 0) {
            stats.evicted(evicted);
        }
        return evicted;
    }

    /** True when {@code key} is cached (no reference taken, no statistics counted). */
    public boolean containsBlock(BlockCacheKey key) {
        return table.get(key) != null;
    }

    /** The priority group of a cached block, or null when it is not cached. */
    public BlockPriority priorityOf(BlockCacheKey key) {
        return table.priorityOf(key);
    }

    /** Outstanding checkouts of the cached entry for {@code key}; 0 when it is not cached. */
    public int referenceCount(BlockCacheKey key) {
        return table.readersOf(key);
    }

    /** Checkouts not yet returned, over cached and evicted entries: zero when readers are idle. */
    public long outstandingReferences() {
        return table.outstandingReferences();
    }

    /** Blocks evicted while checked out: their slots are freed by their last {@code returnBlock}. */
    public int retiredBlockCount() {
        return table.retiredCount();
    }

    public BucketAllocator allocator() {
        return allocator;
    }

    /** Per-class slot statistics; see {@link BucketAllocator#indexStatistics()}. */
    public BucketAllocator.IndexStatistics[] indexStatistics() {
        return allocator.indexStatistics();
    }

    public IOEngine ioEngine() {
        return engine;
    }

    public ReadPathMode readPathMode() {
        return readPathMode;
    }

    /** True when hits are served as shared views of the buckets (zero-copy on a memory engine). */
    public boolean servesViews() {
        return servesViews;
    }

    /** Bytes managed: the whole buckets that fit in the engine. */
    @Override
    public long capacity() {
        return allocator.capacity();
    }

    /** Bytes of the slots in use, including those of evicted blocks still checked out. */
    @Override
    public long usedSize() {
        return allocator.usedBytes();
    }

    /** Slot bytes not filled by the blocks in them (slot size minus block size, summed). */
    public long wastedBytes() {
        return wastedBytes.get();
    }

    /** Blocks not cached because no slot of their class could be freed. */
    public long allocationFailures() {
        return allocationFailures.sum();
    }

    /** Blocks not cached because they are larger than the largest size class. */
    public long oversizedBlockCount() {
        return oversizedBlocks.sum();
    }

    /** Failed engine reads or writes (file engine); each failed read counted as a miss. */
    public long ioErrorCount() {
        return ioErrors.sum();
    }

    @Override
    public CacheStats getStats() {
        return stats;
    }

    @Override
    public long blockCount() {
        return table.size();
    }

    /** Evicts everything and closes the engine. Views still checked out of a memory engine stay readable. */
    @Override
    public void shutdown() {
        shutdown = true;
        for (BucketEntry entry : table.entries()) {
            table.remove(entry);
        }
        engine.close();
    }

    @Override
    public String toString() {
        return "BucketCache[" + engine.type().label() + ", " + readPathMode.label() + ", " + blockCount() + " blocks, "
                + usedSize() + "/" + capacity() + " bytes]";
    }

    /** A block in a slot. */
    private static final class BucketEntry extends CacheEntry {
        final long offset;
        final int length;
        final int sizeClass;
        final int slotSize;
        /** The slot's bytes, made once and shared by every checkout; null unless the cache serves views. */
        final ByteBuff view;

        BucketEntry(
                BlockCacheKey key,
                BlockType type,
                BlockPriority priority,
                long tick,
                long offset,
                int length,
                int sizeClass,
                int slotSize,
                ByteBuff view) {
            super(key, type, priority, tick);
            this.offset = offset;
            this.length = length;
            this.sizeClass = sizeClass;
            this.slotSize = slotSize;
            this.view = view;
        }

        @Override
        public long charge() {
            return slotSize;
        }

        @Override
        public boolean issued(Block block) {
            return view != null && block.data() == view;
        }
    }
}
