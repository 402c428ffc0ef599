package io.blockscope.server.cache.lru;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The L1 cache: each block copied onto the Java heap, held in a concurrent map, evicted by
 * priority group (single-access / multi-access / in-memory, 25/50/25) and LRU within a group.
 *
 * <p><b>Size.</b> Each entry is charged its block's length plus {@link #ENTRY_OVERHEAD}. The thread
 * whose insert takes the total above 99% of capacity evicts, inline, down to 95%; a block larger
 * than the whole capacity is not cached. So the total stays under capacity, give or take the blocks
 * of inserts racing with that eviction.
 *
 * <p><b>Reference counts.</b> {@code getBlock} hands out {@link Block.MemoryType#SHARED} views of the
 * entry's heap copy and counts them; {@code returnBlock} gives them back. Here a count never delays
 * eviction or frees anything: an evicted entry's array stays reachable from every view still out,
 * so the garbage collector, not the count, keeps those bytes valid. The counts exist so that L1
 * follows the same checkout protocol as L2 (a reader cannot tell which tier served it), and so that
 * a leaked checkout shows: {@link #outstandingReferences()} comes back to zero when readers are idle.
 */
public final class LruBlockCache implements BlockCache {

    /** Estimated heap bytes of an entry beyond its block's bytes (entry, views, array header, map node). */
    public static final long ENTRY_OVERHEAD = 160;

    private static final double ACCEPTABLE_FACTOR = 0.99;
    private static final double MIN_FACTOR = 0.95;

    private final long capacity;
    private final long acceptableSize;
    private final long minSize;
    // Heap entries free nothing when their last reference goes: the GC reclaims the array.
    private final EntryTable<LruEntry> table = new EntryTable<>(entry -> {});
    private final AtomicLong size = new AtomicLong();
    /** Orders accesses for LRU; one tick per insert or hit. */
    private final AtomicLong clock = new AtomicLong();

    private final ReentrantLock evictionLock = new ReentrantLock();
    private final CacheStats stats = new CacheStats();
    private final LongAdder rejectedBlocks = new LongAdder();
    private volatile boolean shutdown;

    /** @param capacity heap bytes the cache may hold, counting {@link #chargeOf} per block */
    public LruBlockCache(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("L1 cache capacity must be positive, got " + capacity + " bytes");
        }
        this.capacity = capacity;
        this.acceptableSize = (long) (capacity * ACCEPTABLE_FACTOR);
        this.minSize = (long) (capacity * MIN_FACTOR);
    }

    /** Bytes a block of {@code length} bytes counts against the capacity. */
    public static long chargeOf(int length) {
        return length + ENTRY_OVERHEAD;
    }

    @Override
    public Block getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
        LruEntry entry = table.get(key);
        if (entry == null || !entry.tryRetain()) {
            if (updateCacheMetrics && !repeat) {
                stats.miss();
            }
            return null;
        }
        entry.recordAccess(clock.incrementAndGet());
        if (updateCacheMetrics) {
            stats.hit();
        }
        // a new Block per checkout: leak trackers need one object per checkout
        return new Block(entry.type(), entry.data, Block.MemoryType.SHARED);
    }

    @Override
    public void returnBlock(BlockCacheKey key, Block block) {
        if (block.memoryType() == Block.MemoryType.EXCLUSIVE) {
            return;
        }
        LruEntry entry = table.issuerOf(key, block);
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
        long charge = chargeOf(block.length());
        if (charge > capacity) {
            rejectedBlocks.increment();
            return;
        }
        byte[] copy = block.data().toBytes(0, block.length());
        LruEntry entry = new LruEntry(
                key, block.type(), BlockPriority.forInsert(inMemory), clock.incrementAndGet(), ByteBuff.wrap(copy));
        if (!table.insert(entry)) {
            return;
        }
        if (size.addAndGet(charge) > acceptableSize) {
            evict();
        }
    }

    /** Evicts down to the low-water mark, by priority group and LRU. */
    private void evict() {
        evictionLock.lock();
        try {
            long current = size.get();
            if (current <= acceptableSize) {
                return; // another inserter evicted while we waited
            }
            List<LruEntry> snapshot = new ArrayList<>(table.entries());
            List<LruEntry> victims = PriorityEviction.selectVictims(
                    snapshot, PriorityEviction.chargeByPriority(snapshot), capacity, current - minSize);
            int evicted = 0;
            for (LruEntry victim : victims) {
                if (remove(victim)) {
                    evicted++;
                }
            }
            if (evicted > 0) {
                stats.evicted(evicted);
            }
        } finally {
            evictionLock.unlock();
        }
    }

    private boolean remove(LruEntry entry) {
        if (table.remove(entry)) {
            size.addAndGet(-entry.charge());
            return true;
        }
        return false;
    }

    @Override
    public boolean evictBlock(BlockCacheKey key) {
        LruEntry entry = table.get(key);
        if (entry != null && remove(entry)) {
            stats.evicted(1);
            return true;
        }
        return false;
    }

    @Override
    public int evictBlocksByFile(String fileName) {
        int evicted = table.removeFile(fileName, this::remove);
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

    /** Entries evicted while checked out whose last view has not been returned yet. */
    public int retiredBlockCount() {
        return table.retiredCount();
    }

    /** Blocks not cached because one alone is larger than the capacity. */
    public long rejectedBlockCount() {
        return rejectedBlocks.sum();
    }

    @Override
    public CacheStats getStats() {
        return stats;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    /** Heap bytes charged for the cached blocks, overhead included. */
    @Override
    public long usedSize() {
        return size.get();
    }

    @Override
    public long blockCount() {
        return table.size();
    }

    @Override
    public void shutdown() {
        shutdown = true;
        for (LruEntry entry : table.entries()) {
            remove(entry);
        }
    }

    @Override
    public String toString() {
        return "LruBlockCache[" + blockCount() + " blocks, " + usedSize() + "/" + capacity + " bytes]";
    }

    /** A block's heap copy, wrapped once; every checkout shares this view. */
    private static final class LruEntry extends CacheEntry {
        final ByteBuff data;

        LruEntry(BlockCacheKey key, BlockType type, BlockPriority priority, long tick, ByteBuff data) {
            super(key, type, priority, tick);
            this.data = data;
        }

        @Override
        public long charge() {
            return chargeOf(data.capacity());
        }

        @Override
        public boolean issued(Block block) {
            return block.data() == data;
        }
    }
}
