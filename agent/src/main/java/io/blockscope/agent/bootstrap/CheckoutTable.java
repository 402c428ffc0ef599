package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The blocks currently checked out, for profiles whose returns count only when they give back a
 * checked-out block (a reference-counted block's {@code release()} is also called on blocks that
 * were never handed out by the cache). Keyed by identity hash, holding a tier and a count but never
 * the block itself, so a leaked block is still garbage collected and found by the leak tracker.
 *
 * <p>One {@code long} per slot: identity hash (high 32 bits), tier (8 bits), epoch (8 bits), count
 * (16 bits); 0 is an empty slot. The epoch is the table's {@link #advance epoch} at the entry's last
 * checkout, return or {@link #touched touch}: an entry untouched for several epochs is a stuck reference ({@link #stuck}),
 * found without a clock read on the hot path. Linear probing over a fixed window of {@link #PROBES} slots, every slot of the
 * window checked on each lookup (so an emptied slot needs no tombstone), updated by CAS: no lock,
 * no allocation. Two blocks with the same identity hash share an entry; a release of one stands for
 * the other (rare, and the counts stay balanced). A checkout that finds its window full is not
 * added ({@link #add} returns false): the caller counts it as a plain hit, so outstanding never
 * waits for a return that cannot be matched.
 */
public final class CheckoutTable {

    static final int PROBES = 8;
    private static final long COUNT_MASK = (1L << 16) - 1;
    private static final int EPOCH_SHIFT = 16;
    private static final long EPOCH_MASK = 0xffL << EPOCH_SHIFT;
    private static final int TIER_SHIFT = 24;
    /** Epochs cycle through 0 to {@code EPOCHS - 1}. */
    static final int EPOCHS = 255;
    /** The epoch of an entry found stuck: kept until the entry is touched, so the cycle never unsticks it. */
    static final int STUCK = 255;

    private final AtomicLongArray slots;
    private final int mask;
    /** Stamped on every entry a checkout or return touches; moved on by the scrape side only. */
    private volatile int epoch;

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
        long stamp = (long) epoch << EPOCH_SHIFT;
        // an entry for the same hash and tier first: a block checked out twice holds one slot
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            for (long entry;
                    matches(entry = slots.get(slot), hash)
                            && tierOf(entry) == tier
                            && (entry & COUNT_MASK) < COUNT_MASK; ) {
                if (slots.compareAndSet(slot, entry, ((entry + 1) & ~EPOCH_MASK) | stamp)) {
                    return true;
                }
            }
        }
        long fresh = ((long) hash << 32) | ((long) tier << TIER_SHIFT) | stamp | 1L;
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
        long stamp = (long) epoch << EPOCH_SHIFT;
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            for (long entry; matches(entry = slots.get(slot), hash); ) {
                long next = (entry & COUNT_MASK) == 1L ? 0L : ((entry - 1) & ~EPOCH_MASK) | stamp;
                if (slots.compareAndSet(slot, entry, next)) {
                    return tierOf(entry);
                }
            }
        }
        return -1;
    }

    /**
     * {@code block}'s holder is still using it: its checkout's age restarts (the entry is stamped with
     * the current epoch, and is no longer {@link #STUCK}), as a checkout or return of it would do,
     * without changing its count. Nothing if it is not checked out. A slow scanner keeps the block
     * it stands on checked out for minutes and passes by it at each of its client's calls; a leaked
     * reference is never touched again.
     */
    public void touched(Object block) {
        touched(System.identityHashCode(block));
    }

    /**
     * {@link #touched(Object)} by identity hash. Every entry of the hash is re-stamped (two blocks of
     * one hash share entries already, as {@link #remove} does); a CAS against the entry read, so a
     * racing return that emptied or changed the slot is never undone: the entry is read again.
     */
    void touched(int hash) {
        int home = spread(hash);
        int now = epoch;
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            for (long entry;
                    matches(entry = slots.get(slot), hash) && (int) ((entry & EPOCH_MASK) >>> EPOCH_SHIFT) != now; ) {
                if (slots.compareAndSet(slot, entry, (entry & ~EPOCH_MASK) | ((long) now << EPOCH_SHIFT))) {
                    break;
                }
            }
        }
    }

    /** Checkouts recorded, summed over all slots (for tests and diagnostics, not the hot path). */
    public long size() {
        long total = 0;
        for (int slot = 0; slot <= mask; slot++) {
            total += slots.get(slot) & COUNT_MASK;
        }
        return total;
    }

    /** Moves on to the next epoch: entries touched from now on are stamped with it. Scrape side only. */
    public void advance() {
        epoch = (epoch + 1) % EPOCHS;
    }

    /**
     * Checkouts, by tier, of entries last touched (checked out or returned) {@code epochs} or more
     * epochs ago: at least {@code epochs - 1} whole epochs have passed since.
     * Each such entry is marked {@link #STUCK} until it is touched again. Scrape side only.
     */
    public long[] stuck(int epochs, int tiers) {
        long[] byTier = new long[tiers];
        int now = epoch;
        for (int slot = 0; slot <= mask; slot++) {
            long entry = slots.get(slot);
            if (entry == 0L) {
                continue;
            }
            int stamped = (int) ((entry & EPOCH_MASK) >>> EPOCH_SHIFT);
            if (stamped != STUCK) {
                if ((now - stamped + EPOCHS) % EPOCHS < epochs
                        || !slots.compareAndSet(slot, entry, (entry & ~EPOCH_MASK) | ((long) STUCK << EPOCH_SHIFT))) {
                    continue; // touched lately, or right now
                }
            }
            int tier = tierOf(entry);
            if (tier < tiers) {
                byTier[tier] += entry & COUNT_MASK;
            }
        }
        return byTier;
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
