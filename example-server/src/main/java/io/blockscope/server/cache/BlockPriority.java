package io.blockscope.server.cache;

/**
 * The three LRU groups of a block cache, each entitled to a share of its capacity.
 *
 * <p>A block enters as {@link #SINGLE} (or {@link #MEMORY} when its family is marked in-memory)
 * and moves to {@link #MULTI} on its first hit. Eviction takes from the group furthest over its
 * share, so a scan that touches many blocks once flushes other single-access blocks, not the
 * blocks that are read again and again.
 */
public enum BlockPriority {
    SINGLE(0.25),
    MULTI(0.50),
    MEMORY(0.25);

    private final double share;

    BlockPriority(double share) {
        this.share = share;
    }

    /** Fraction of the cache's capacity this group may fill before it is the first to lose blocks. */
    public double share() {
        return share;
    }

    /** The priority a block is cached with. */
    public static BlockPriority forInsert(boolean inMemory) {
        return inMemory ? MEMORY : SINGLE;
    }
}
