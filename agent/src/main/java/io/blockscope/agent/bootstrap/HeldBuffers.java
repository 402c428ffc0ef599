package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every pool buffer out of its pool, with the time it was taken: exact, not sampled. A pool creates
 * at most its {@code max.buffer.count} buffers and lends each to one holder at a time, so one
 * {@code long} per buffer out is enough: the buffer's identity hash (high 32 bits) and the tick it
 * was taken at (low 32 bits, {@code 2^}{@link #TICK_SHIFT} ns each, about 16.8 ms; ages are told
 * apart up to 1.1 years). A buffer out longer than {@code leak.age} is stuck: leaked,
 * or held by a reader that does not let go. The pool's own free list cannot tell that: a buffer
 * taken and given back between two reads of it looks the same as one that never came back.
 *
 * <p>Open addressing over a window of {@link #PROBES} slots, every update a CAS: no lock, no
 * allocation. Nothing holds the buffer itself, so a leaked buffer is still garbage collected (and
 * still counted here, as the pool lost it all the same). Two buffers out with the same identity hash
 * take an entry each; a give-back removes the youngest, because a buffer that cycles is younger than
 * one that is stuck. A take whose window is full is not held ({@link #untracked()}); its give-back
 * finds nothing, as does the give-back of a buffer taken before the agent came.
 *
 * <p>A holder that is alive can say so: {@link #touched} re-stamps a buffer's entry, so its age
 * restarts (a slow scanner keeps the block it stands on in one buffer for minutes, and passes by
 * each time its client asks for more; a leaked buffer is never touched again). Of two entries with
 * one identity hash a touch re-stamps the youngest, the same one a give-back removes: a touched
 * buffer is live, and the live one is the younger (after a touch, always). That rule never hides an
 * older entry of the same hash; it can count a second live buffer of that hash as stuck, only while
 * both are held past {@code leak.age} at once.
 *
 * <p>Beside each entry: the table id ({@link Context}) the taking thread worked for, written by the
 * take that won the slot, right after. A scrape may pair a brand-new entry with the slot's previous
 * table, never a stuck one (that write is {@code leak.age} old by then), so stuck buffers by table
 * are as exact as the stuck count. A touch keeps the table: the buffer is still the taker's.
 */
public final class HeldBuffers {

    static final int PROBES = 16;
    /** {@link #PROBES}, for tests of other packages. */
    public static final int PROBES_FOR_TEST = PROBES;

    static final int TICK_SHIFT = 24;
    private static final long TICK_MASK = 0xffff_ffffL;

    private final AtomicLongArray slots;
    /** By slot: the table id of the take that holds it (stale in an empty slot). */
    private final AtomicIntegerArray tables;

    private final int mask;
    private final AtomicLong untracked = new AtomicLong();

    /** @param capacity slots; rounded up to a power of two, at least 64 */
    public HeldBuffers(int capacity) {
        int size = capacity <= 64 ? 64 : Integer.highestOneBit(capacity - 1) << 1;
        this.slots = new AtomicLongArray(size);
        this.tables = new AtomicIntegerArray(size);
        this.mask = size - 1;
    }

    public int capacity() {
        return mask + 1;
    }

    /** {@code buffer} left its pool at {@code nanoTime} ({@link System#nanoTime()}), for no table. */
    public void taken(Object buffer, long nanoTime) {
        taken(System.identityHashCode(buffer), nanoTime, 0);
    }

    /** {@code buffer} left its pool at {@code nanoTime} for table id {@code table}. */
    public void taken(Object buffer, long nanoTime, int table) {
        taken(System.identityHashCode(buffer), nanoTime, table);
    }

    /** {@link #taken(Object, long)} by identity hash (tests pick colliding ones). */
    void taken(int hash, long nanoTime) {
        taken(hash, nanoTime, 0);
    }

    /** {@link #taken(Object, long, int)} by identity hash. */
    void taken(int hash, long nanoTime, int table) {
        // the low bit set keeps an entry non-zero (0 is an empty slot) at the price of one tick
        long entry = ((long) hash << 32) | tick(nanoTime) | 1L;
        int home = spread(hash);
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            if (slots.get(slot) == 0L && slots.compareAndSet(slot, 0L, entry)) {
                tables.lazySet(slot, table);
                return;
            }
        }
        untracked.incrementAndGet();
    }

    /** {@code buffer} is back in its pool. */
    public void given(Object buffer) {
        given(System.identityHashCode(buffer));
    }

    /** {@link #given(Object)} by identity hash. */
    void given(int hash) {
        while (true) {
            int slot = youngestSlot(hash);
            if (slot < 0) {
                return; // not held (untracked, or taken before the agent came)
            }
            long youngest = slots.get(slot);
            if (isOf(youngest, hash) && slots.compareAndSet(slot, youngest, 0L)) {
                return;
            }
            // another give-back of the same hash took that entry first: look again
        }
    }

    /** {@code buffer}'s holder used it at {@code nanoTime}: its age restarts; nothing if it is not held. */
    public void touched(Object buffer, long nanoTime) {
        touched(System.identityHashCode(buffer), nanoTime);
    }

    /** {@link #touched(Object, long)} by identity hash. */
    void touched(int hash, long nanoTime) {
        long stamp = ((long) hash << 32) | tick(nanoTime) | 1L;
        while (true) {
            int slot = youngestSlot(hash);
            if (slot < 0) {
                return; // not held
            }
            long youngest = slots.get(slot);
            if (isOf(youngest, hash) && ticksBetween(youngest, stamp) <= 0) {
                return; // stamped at this tick already (or later, by a racing touch)
            }
            if (isOf(youngest, hash) && slots.compareAndSet(slot, youngest, stamp)) {
                return;
            }
            // given back or re-stamped meanwhile: look again
        }
    }

    /**
     * The slot of the youngest entry of {@code hash} (the one a give-back removes and a touch
     * re-stamps: a buffer that cycles is younger than one that is stuck), or -1 when none is held.
     */
    private int youngestSlot(int hash) {
        int home = spread(hash);
        int youngestSlot = -1;
        long youngest = 0L;
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            long entry = slots.get(slot);
            if (isOf(entry, hash) && (youngest == 0L || ticksBetween(youngest, entry) > 0)) {
                youngest = entry;
                youngestSlot = slot;
            }
        }
        return youngestSlot;
    }

    private static boolean isOf(long entry, int hash) {
        return entry != 0L && (int) (entry >>> 32) == hash;
    }

    /** Buffers out now that were taken more than {@code ageNanos} before {@code nowNanos}. */
    public int olderThan(long nowNanos, long ageNanos) {
        long now = tick(nowNanos) | 1L;
        long maxTicks = ageNanos >>> TICK_SHIFT;
        int n = 0;
        for (int slot = 0; slot <= mask; slot++) {
            long entry = slots.get(slot);
            if (entry != 0L && ticksBetween(entry, now) > maxTicks) {
                n++;
            }
        }
        return n;
    }

    /**
     * {@link #olderThan}, by table: adds each such buffer's count into {@code byTable[table id]} (a
     * table id past its end into the last element); returns their total.
     */
    public int olderThan(long nowNanos, long ageNanos, int[] byTable) {
        long now = tick(nowNanos) | 1L;
        long maxTicks = ageNanos >>> TICK_SHIFT;
        int n = 0;
        for (int slot = 0; slot <= mask; slot++) {
            long entry = slots.get(slot);
            if (entry != 0L && ticksBetween(entry, now) > maxTicks) {
                int table = tables.get(slot);
                byTable[table >= 0 && table < byTable.length ? table : byTable.length - 1]++;
                n++;
            }
        }
        return n;
    }

    /** Buffers out now. */
    public int held() {
        int n = 0;
        for (int slot = 0; slot <= mask; slot++) {
            if (slots.get(slot) != 0L) {
                n++;
            }
        }
        return n;
    }

    /** Takes not held because their window was full. */
    public long untracked() {
        return untracked.get();
    }

    private static long tick(long nanoTime) {
        return (nanoTime >>> TICK_SHIFT) & TICK_MASK;
    }

    /** Ticks from entry {@code a}'s take to entry {@code b}'s, modulo 2^32, as a signed count. */
    private static long ticksBetween(long a, long b) {
        return (int) ((b & TICK_MASK) - (a & TICK_MASK));
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
