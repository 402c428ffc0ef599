package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The blocks currently checked out, for profiles whose returns count only when they give back a
 * checked-out block (a reference-counted block's {@code release()} is also called on blocks that
 * were never handed out by the cache). Keyed by identity hash, holding a tier and a count but never
 * the block itself, so a leaked block is still garbage collected and found by the leak tracker.
 *
 * <p>One {@code long} per slot: identity hash (high 32 bits), tier (8 bits), count (24 bits); 0 is
 * an empty slot. Linear probing over a fixed window of {@link #PROBES} slots, every slot of the
 * window checked on each lookup (so an emptied slot needs no tombstone), updated by CAS: no lock,
 * no allocation. Two blocks with the same identity hash share an entry; a release of one stands for
 * the other (rare, and the counts stay balanced). A checkout that finds its window full is not
 * added ({@link #add} returns false): the caller counts it as a plain hit, so outstanding never
 * waits for a return that cannot be matched.
 */
public final class CheckoutTable {

    static final int PROBES = 8;
    private static final long COUNT_MASK = (1L << 24) - 1;
    private static final int TIER_SHIFT = 24;

    private final AtomicLongArray slots;
    private final int mask;

    /** @param capacity slots; rounded up to a power of two, at least 64 */
    public CheckoutTable(int capacity) {
        int size = capacity <= 64 ? 64 : Integer.highestOneBit(capacity - 1) << 1;
        this.slots = new AtomicLongArray(size);
        this.mask = size - 1;
    }

    public int capacity() {
        return mask + 1;
    }

    /** Records one checkout of {@code block} in tier {@code tier}; false when its window is full. */
    public boolean add(Object block, int tier) {
        return add(System.identityHashCode(block), tier);
    }

    /** {@link #add(Object, int)} by identity hash (the model-checking test picks colliding ones). */
    boolean add(int hash, int tier) {
        int home = spread(hash);
        // an entry for the same hash and tier first: a block checked out twice holds one slot
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            for (long entry;
                    matches(entry = slots.get(slot), hash)
                            && tierOf(entry) == tier
                            && (entry & COUNT_MASK) < COUNT_MASK; ) {
                if (slots.compareAndSet(slot, entry, entry + 1)) {
                    return true;
                }
            }
        }
        long fresh = ((long) hash << 32) | ((long) tier << TIER_SHIFT) | 1L;
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            if (slots.get(slot) == 0L && slots.compareAndSet(slot, 0L, fresh)) {
                return true;
            }
        }
        return false;
    }

    /** Takes back one checkout of {@code block}: its tier, or -1 if it is not checked out. */
    public int remove(Object block) {
        return remove(System.identityHashCode(block));
    }

    /** {@link #remove(Object)} by identity hash. */
    int remove(int hash) {
        int home = spread(hash);
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            for (long entry; matches(entry = slots.get(slot), hash); ) {
                long next = (entry & COUNT_MASK) == 1L ? 0L : entry - 1;
                if (slots.compareAndSet(slot, entry, next)) {
                    return tierOf(entry);
                }
            }
        }
        return -1;
    }

    /** Checkouts recorded, summed over all slots (for tests and diagnostics, not the hot path). */
    public long size() {
        long total = 0;
        for (int slot = 0; slot <= mask; slot++) {
            total += slots.get(slot) & COUNT_MASK;
        }
        return total;
    }

    private static boolean matches(long entry, int hash) {
        return entry != 0L && (int) (entry >>> 32) == hash;
    }

    private static int tierOf(long entry) {
        return (int) (entry >>> TIER_SHIFT) & 0xff;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
