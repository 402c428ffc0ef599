package io.blockscope.server.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One cached block: its identity, its eviction metadata and a reference count (support class for
 * the caches of this module, not an API for readers).
 *
 * <p>The count follows Netty's scheme with one twist: the cache's own reference is a separate bit,
 * so "still cached" and "still referenced" can be told apart with one atomic read.
 * <pre>
 *   state = 2 * readers + (cached ? 1 : 0)
 * </pre>
 * Invariants:
 * <ul>
 *   <li>An entry starts cached with no readers ({@code state == 1}).</li>
 *   <li>{@link #tryRetain()} succeeds only while the cache bit is set: once an entry has been
 *       removed from its cache, no new reader can reach its memory.</li>
 *   <li>The cache bit is cleared exactly once ({@link #dropCacheReference()}), by whoever removed
 *       the entry from the cache's map.</li>
 *   <li>The transition to {@code state == 0} happens exactly once, and the thread that makes it
 *       frees the entry's memory: never a use after free, never a double free.</li>
 * </ul>
 * Entries compare by identity: a key evicted and cached again is a different entry.
 */
public abstract class CacheEntry {

    private static final int CACHED = 1;
    private static final int READER = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CacheEntry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BlockCacheKey key;
    private final BlockType type;
    private volatile BlockPriority priority;
    /** Tick of the cache's access clock at the last insert or hit; eviction takes the oldest first. */
    private volatile long lastAccess;

    @SuppressWarnings("FieldMayBeFinal") // written through STATE
    private volatile int state = CACHED;

    protected CacheEntry(BlockCacheKey key, BlockType type, BlockPriority priority, long insertTick) {
        this.key = key;
        this.type = type;
        this.priority = priority;
        this.lastAccess = insertTick;
    }

    public final BlockCacheKey key() {
        return key;
    }

    public final BlockType type() {
        return type;
    }

    public final BlockPriority priority() {
        return priority;
    }

    public final long lastAccess() {
        return lastAccess;
    }

    /** Bytes this entry counts against its cache's capacity. */
    public abstract long charge();

    /** True when {@code block} is a view this entry handed out (identity of the shared bytes). */
    public abstract boolean issued(Block block);

    /** Notes a hit: refreshes the LRU position and promotes a single-access block to multi-access. */
    public final void recordAccess(long tick) {
        lastAccess = tick;
        if (priority == BlockPriority.SINGLE) {
            // benign race: two first hits both write MULTI
            priority = BlockPriority.MULTI;
        }
    }

    /** Takes a reader reference; false when the entry has already left its cache. */
    public final boolean tryRetain() {
        for (; ; ) {
            int s = state;
            if ((s & CACHED) == 0) {
                return false;
            }
            if (s > Integer.MAX_VALUE - READER) {
                throw new IllegalStateException(
                        key + " has too many outstanding references: blocks are not being returned");
            }
            if (STATE.compareAndSet(this, s, s + READER)) {
                return true;
            }
        }
    }

    /**
     * Gives back a reader reference.
     *
     * @return true when this was the last reference and the caller must free the entry's memory
     * @throws IllegalStateException when no reader reference is outstanding (a block returned twice)
     */
    public final boolean release() {
        for (; ; ) {
            int s = state;
            if (s < READER) {
                throw new IllegalStateException(key + " was returned more often than it was checked out");
            }
            int next = s - READER;
            if (STATE.compareAndSet(this, s, next)) {
                return next == 0;
            }
        }
    }

    /**
     * Drops the cache's own reference, once the entry is out of the cache's map.
     *
     * @return true when no reader holds the entry and the caller must free its memory now
     */
    public final boolean dropCacheReference() {
        for (; ; ) {
            int s = state;
            if ((s & CACHED) == 0) {
                throw new IllegalStateException(key + " was removed from its cache twice");
            }
            int next = s - CACHED;
            if (STATE.compareAndSet(this, s, next)) {
                return next == 0;
            }
        }
    }

    /** Outstanding reader references (checkouts not yet returned). */
    public final int readers() {
        return state >>> 1;
    }

    /** True while the entry is in its cache's map. */
    public final boolean isCached() {
        return (state & CACHED) != 0;
    }

    @Override
    public String toString() {
        int s = state;
        return getClass().getSimpleName() + "[" + key + ", " + type + ", " + priority + ", readers=" + (s >>> 1)
                + ((s & CACHED) != 0 ? ", cached" : ", evicted") + "]";
    }
}
