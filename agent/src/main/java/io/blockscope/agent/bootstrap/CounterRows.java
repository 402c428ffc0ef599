package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import jdk.internal.vm.annotation.DontInline;

/**
 * The storage behind every {@link Counter}: one row of longs per thread, one column per counter.
 * A thread adds only into its own row, so an increment is a plain load and a release store (a
 * plain {@code mov} on x86): no atomic read-modify-write, no lock, and no cache line written by
 * another thread. {@link java.util.concurrent.atomic.LongAdder} pays a CAS per increment; on the
 * read path that was most of a probe's cost.
 *
 * <p>A thread finds its row without a {@code ThreadLocal}: its id (a field of {@code Thread})
 * hashed to a slot of a fixed table, checked against the owner id kept in the row's first long,
 * within {@link #PROBES} slots. Thread ids are never reused, so a row is never shared. A thread's
 * first count claims its slot (once); a thread that finds no free slot adds atomically into a
 * shared row instead, still exact. Rows of dead threads are folded into a retired row and their
 * slots cleared and freed by {@link #retireDeadThreads}, at scrape time, so thread churn does not
 * fill the table.
 *
 * <p>The hot path touches as few cache lines as it can, because the read path it sits in evicts
 * them between calls, and each load waits for the one before it. All rows sit in one array,
 * {@link #TABLE}, at a fixed stride: a row is found by arithmetic on the id, not by loading a
 * reference to it first, so a count is the thread's id, then the row's head, which holds the owner
 * id, the sampling countdown and the columns reserved first ({@link #reserve}: the hit, return and
 * miss counts of the first tiers). What the hot path never needs (the owner's {@code Thread}, the
 * receiver slot) sits in a parallel table. The price: the whole table (384 KB) is allocated
 * up front instead of a row per thread that counts.
 *
 * <p>Sums read each row with acquire loads under this class's lock (scrape side only): a count
 * seen in one column implies the counts its thread made before it in others (a return is never
 * seen without its checkout).
 */
final class CounterRows {

    /** Columns: every {@link Counter} takes one. */
    static final int MAX_COLUMNS = 80;

    private static final int SLOT_BITS = 9;
    private static final int SLOTS = 1 << SLOT_BITS;
    private static final int PROBES = 8;
    /** The table's size, for tests that fill it. */
    static final int SLOTS_FOR_TEST = SLOTS;

    /** In each row: the owner's thread id (0: free), written after the row is cleared, with release. */
    private static final int OWNER = 0;
    /** This thread's calls to skip before its next sampled one ... */
    private static final int SKIP = 1;
    /** ... and the rate that skip count was drawn for (0: none drawn yet). Only the owner reads both. */
    private static final int SKIP_RATE = 2;
    /** Where column 0 sits. */
    private static final int FIRST_COLUMN = 3;
    /**
     * Longs from one row's head to the next: whole cache lines, with at least a line after the last
     * column, so one thread's writes never share a line with another's row.
     */
    private static final int STRIDE = (FIRST_COLUMN + MAX_COLUMNS + 8 + 7) & ~7;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle OWNER_SLOTS = MethodHandles.arrayElementVarHandle(Owner[].class);

    /** Every slot's row, slot {@code s} at {@code s * STRIDE}. */
    private static final long[] TABLE = new long[SLOTS * STRIDE];
    /**
     * Who holds each slot: claimed (by CAS) before the row's owner id is written, freed after it
     * is cleared, so a slot with an owner may still have no owner id in its row, never the reverse.
     */
    private static final Owner[] OWNERS = new Owner[SLOTS];
    /** Counts of threads that found no slot: added atomically. */
    private static final long[] SHARED = new long[FIRST_COLUMN + MAX_COLUMNS];
    /** Counts of rows whose thread has ended; guarded by the class lock. */
    private static final long[] RETIRED = new long[MAX_COLUMNS];

    private static int columns;

    private CounterRows() {}

    /** The thread that holds a slot, and its receiver slot; read off the hot path only. */
    private static final class Owner {
        final WeakReference<Thread> thread;
        /** Written and read by the owner only (receiver probes and copy doors; see {@code Copies.callSlot}). */
        final Object[] receiver = new Object[Copies.CALL_SLOT_LENGTH];
        /** Whose work the thread is doing ({@link Context}); written and read by the owner only. */
        final ContextRow context = new ContextRow();
        /** Copy bytes by table id and component ({@code table * MAX_COMPONENTS + component}). */
        final long[] tableBytes = new long[Context.tables.width() * Counters.MAX_COMPONENTS];
        /** Copy bytes by user id. */
        final long[] userBytes = new long[Context.users.width()];
        /** Heap fallbacks and their bytes by table id and reason ({@link #fallbackIndex}). */
        final long[] tableFallbacks = new long[Context.tables.width() * FALLBACK_WIDTH];

        Owner(Thread thread) {
            this.thread = new WeakReference<>(thread);
        }
    }

    /** Copy bytes by table and component, then by user, of ended threads; guarded by the class lock. */
    private static long[] retiredTableBytes = new long[0];

    private static long[] retiredTableFallbacks = new long[0];

    /** Per table in {@code tableFallbacks}: calls then bytes of each fallback reason. */
    static final int FALLBACK_WIDTH = 2 * Counters.FALLBACK_REASONS;

    /** Where a table's fallback calls of {@code reason} sit; their bytes are at the next index. */
    static int fallbackIndex(int table, int reason) {
        return table * FALLBACK_WIDTH + 2 * reason;
    }

    private static long[] retiredUserBytes = new long[0];

    static int newColumn() {
        return reserve(1);
    }

    /** Reserves {@code n} adjacent columns and returns the first. */
    static synchronized int reserve(int n) {
        if (columns + n > MAX_COLUMNS) {
            throw new IllegalStateException("more than " + MAX_COLUMNS + " counters");
        }
        int first = columns;
        columns += n;
        return first;
    }

    /** Adds {@code x} to {@code column} of the current thread's row. */
    static void add(int column, long x) {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int row = home(tid) * STRIDE;
        if (TABLE[row + OWNER] == tid) {
            int i = row + FIRST_COLUMN + column;
            LONGS.setRelease(TABLE, i, TABLE[i] + x);
            return;
        }
        addSlow(current, tid, column, x);
    }

    /**
     * Adds 1 to {@code column} and says whether this call is one of the 1 in {@code rate} sampled
     * (0: none; 1: all). The decision is a countdown in the thread's row: the number of calls to skip
     * is drawn from the geometric distribution once per sample, so the sampled calls are exactly a
     * Bernoulli(1/rate) sample, at the price of a decrement per call instead of a random draw.
     *
     * <p>This method is inlined into every instrumented cache method, so it holds only the common
     * case: the row, the count and the countdown. The rest (a new countdown, a thread without a row)
     * runs out of line. Inlined, its random draws and logarithms were compiled into the advice of
     * every lookup site, twice (counted and uncounted hits), because C2 had seen them run, once in
     * about a thousand calls.
     */
    static boolean incrementAndSample(int column, int rate) {
        long tid = Thread.currentThread().getId();
        int row = home(tid) * STRIDE;
        if (TABLE[row + OWNER] != tid) {
            return incrementAndSampleWithoutRow(column, rate);
        }
        int i = row + FIRST_COLUMN + column;
        LONGS.setRelease(TABLE, i, TABLE[i] + 1L);
        if (rate <= 1) {
            return rate == 1;
        }
        long skip = TABLE[row + SKIP];
        if (skip > 0 && TABLE[row + SKIP_RATE] == rate) {
            TABLE[row + SKIP] = skip - 1;
            return false;
        }
        return countdownEnded(row, rate);
    }

    /**
     * The countdown in {@code row} reached 0, or was drawn for another rate (0: none drawn yet):
     * whether this call is sampled, with the next countdown stored. Only the row's owner calls it.
     */
    @DontInline
    private static boolean countdownEnded(int row, int rate) {
        if (TABLE[row + SKIP_RATE] != rate) {
            // the thread's first sampled count, or the rate changed: this call starts a fresh countdown
            TABLE[row + SKIP_RATE] = rate;
            long skip = skipsBeforeSample(rate);
            if (skip > 0) {
                TABLE[row + SKIP] = skip - 1;
                return false;
            }
        }
        TABLE[row + SKIP] = skipsBeforeSample(rate);
        return true;
    }

    /** {@link #incrementAndSample} for a thread whose row is not at its home slot, or that has none. */
    @DontInline
    private static boolean incrementAndSampleWithoutRow(int column, int rate) {
        addSlow(Thread.currentThread(), Thread.currentThread().getId(), column, 1L);
        return rate == 1 || (rate > 1 && ThreadLocalRandom.current().nextInt(rate) == 0);
    }

    /** Failures before the next success of a Bernoulli(1/rate) process: geometric, mean rate - 1. */
    static long skipsBeforeSample(int rate) {
        double u = ThreadLocalRandom.current().nextDouble();
        double k = Math.floor(Math.log1p(-u) / Math.log1p(-1.0 / rate));
        return k >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) k;
    }

    /** Adds {@code x} to column {@code a} and {@code y} to column {@code b}: one row lookup for both. */
    static void add(int a, long x, int b, long y) {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int row = home(tid) * STRIDE;
        if (TABLE[row + OWNER] == tid) {
            int i = row + FIRST_COLUMN + a;
            int j = row + FIRST_COLUMN + b;
            // the second store is the release that publishes both
            TABLE[i] += x;
            LONGS.setRelease(TABLE, j, TABLE[j] + y);
            return;
        }
        addSlow(current, tid, a, x);
        addSlow(current, tid, b, y);
    }

    /**
     * {@link #add(int, long, int, long)}, and {@code y} bytes of {@code component} into the columns
     * of the thread's table and user ({@link Context}): the same row lookup, then array stores in
     * arrays the row's owner allocated with it. A thread without a row counts no context.
     */
    static void addCopy(int a, long x, int b, long y, int component) {
        int slot = addInSlot(a, x, b, y);
        if (slot < 0) {
            return;
        }
        Owner owner = OWNERS[slot];
        int[] context = owner.context.ids;
        long[] byTable = owner.tableBytes;
        int t = context[Context.TABLE] * Counters.MAX_COMPONENTS + component;
        if (t < byTable.length) {
            LONGS.setRelease(byTable, t, byTable[t] + y);
        }
        long[] byUser = owner.userBytes;
        int u = context[Context.USER];
        if (u < byUser.length) {
            LONGS.setRelease(byUser, u, byUser[u] + y);
        }
    }

    /**
     * {@link #add(int, long, int, long)} of one heap fallback ({@code 1} to {@code a}, {@code bytes}
     * to {@code b}), and the same into the thread's table's columns of {@code reason} ({@link
     * Context}), like {@link #addCopy}: the same row lookup, then array stores only.
     */
    static void addFallback(int a, int b, long bytes, int reason) {
        int slot = addInSlot(a, 1L, b, bytes);
        if (slot < 0) {
            return;
        }
        Owner owner = OWNERS[slot];
        long[] byTable = owner.tableFallbacks;
        int t = fallbackIndex(owner.context.ids[Context.TABLE], reason);
        if (t + 1 < byTable.length) {
            byTable[t] += 1L;
            LONGS.setRelease(byTable, t + 1, byTable[t + 1] + bytes);
        }
    }

    /**
     * {@link #add(int, long, int, long)} for the callers that go on to the thread's context columns:
     * the slot of the thread's row, or -1 for a thread without one.
     */
    private static int addInSlot(int a, long x, int b, long y) {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int slot = home(tid);
        int row = slot * STRIDE;
        if (TABLE[row + OWNER] == tid) {
            int i = row + FIRST_COLUMN + a;
            int j = row + FIRST_COLUMN + b;
            TABLE[i] += x;
            LONGS.setRelease(TABLE, j, TABLE[j] + y);
            return slot;
        }
        addSlow(current, tid, a, x);
        addSlow(current, tid, b, y);
        return slotSlow(current, tid);
    }

    /** This thread's {@link Context} row, kept with its counter row like {@link #callSlot}. */
    static ContextRow context() {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int slot = home(tid);
        if (TABLE[slot * STRIDE + OWNER] != tid) {
            slot = slotSlow(current, tid);
            if (slot < 0) {
                return NO_ROW_CONTEXT.get();
            }
        }
        return OWNERS[slot].context;
    }

    private static final ThreadLocal<ContextRow> NO_ROW_CONTEXT = ThreadLocal.withInitial(ContextRow::new);

    /**
     * Copy bytes by table and component ({@code [table * MAX_COMPONENTS + component]}) and by user,
     * over all rows and retired rows, into arrays of the current {@link Context} widths.
     */
    static synchronized void sumContext(long[] byTable, long[] byUser) {
        addInto(byTable, retiredTableBytes);
        addInto(byUser, retiredUserBytes);
        for (int slot = 0; slot < SLOTS; slot++) {
            Owner owner = (Owner) OWNER_SLOTS.getAcquire(OWNERS, slot);
            if (owner != null && (long) LONGS.getAcquire(TABLE, slot * STRIDE + OWNER) != 0) {
                addInto(byTable, owner.tableBytes);
                addInto(byUser, owner.userBytes);
            }
        }
    }

    /** Heap fallbacks by table and reason ({@link #fallbackIndex}), over all rows and retired rows. */
    static synchronized void sumFallbacks(long[] byTable) {
        addInto(byTable, retiredTableFallbacks);
        for (int slot = 0; slot < SLOTS; slot++) {
            Owner owner = (Owner) OWNER_SLOTS.getAcquire(OWNERS, slot);
            if (owner != null && (long) LONGS.getAcquire(TABLE, slot * STRIDE + OWNER) != 0) {
                addInto(byTable, owner.tableFallbacks);
            }
        }
    }

    private static void addInto(long[] into, long[] from) {
        int n = Math.min(into.length, from.length);
        for (int i = 0; i < n; i++) {
            into[i] += (long) LONGS.getAcquire(from, i);
        }
    }

    private static long[] fold(long[] retired, long[] from) {
        long[] into = retired.length >= from.length ? retired : java.util.Arrays.copyOf(retired, from.length);
        addInto(into, from);
        return into;
    }

    private static void addSlow(Thread current, long tid, int column, long x) {
        int slot = slotSlow(current, tid);
        if (slot < 0) {
            LONGS.getAndAdd(SHARED, FIRST_COLUMN + column, x);
            return;
        }
        int i = slot * STRIDE + FIRST_COLUMN + column;
        LONGS.setRelease(TABLE, i, TABLE[i] + x);
    }

    /** The slot of the thread's row, past its home slot or newly claimed; -1 when none is free. */
    private static int slotSlow(Thread current, long tid) {
        int home = home(tid);
        // its row first (it may sit past a slot freed since), then a free slot to claim
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & (SLOTS - 1);
            if ((long) LONGS.getAcquire(TABLE, slot * STRIDE + OWNER) == tid) {
                return slot;
            }
        }
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & (SLOTS - 1);
            if (OWNER_SLOTS.getAcquire(OWNERS, slot) == null) {
                Owner mine = new Owner(current);
                if (OWNER_SLOTS.compareAndSet(OWNERS, slot, null, mine)) {
                    // the row was cleared before the slot was freed
                    LONGS.setRelease(TABLE, slot * STRIDE + OWNER, tid);
                    return slot;
                }
            }
        }
        return -1;
    }

    /**
     * This thread's call slot for receiver probes and copy doors (see {@code Copies.callSlot}): kept
     * with its row, so the advice finds it as counters do, without
     * a {@code ThreadLocal} map lookup; a thread without a row uses a {@code ThreadLocal}.
     */
    static Object[] callSlot() {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int slot = home(tid);
        if (TABLE[slot * STRIDE + OWNER] != tid) {
            slot = slotSlow(current, tid);
            if (slot < 0) {
                return NO_ROW_RECEIVER.get();
            }
        }
        // the owner claimed the slot before writing its id, and only a retirement frees it, once dead
        return OWNERS[slot].receiver;
    }

    private static final ThreadLocal<Object[]> NO_ROW_RECEIVER =
            ThreadLocal.withInitial(() -> new Object[Copies.CALL_SLOT_LENGTH]);

    /** Fibonacci hashing of the id: consecutive ids spread over the table. */
    private static int home(long tid) {
        return (int) ((tid * 0x9E3779B97F4A7C15L) >>> (64 - SLOT_BITS));
    }

    /** The column's total over all rows, retired rows and the shared row. */
    static synchronized long sum(int column) {
        long total = RETIRED[column] + (long) LONGS.getVolatile(SHARED, FIRST_COLUMN + column);
        for (int slot = 0; slot < SLOTS; slot++) {
            int row = slot * STRIDE;
            // a row without an owner id holds zeros (cleared on retirement, or claimed and not yet
            // counting): skipping it saves a cache line per free slot and column
            if ((long) LONGS.getAcquire(TABLE, row + OWNER) != 0) {
                total += (long) LONGS.getAcquire(TABLE, row + FIRST_COLUMN + column);
            }
        }
        return total;
    }

    /**
     * Folds the rows of ended threads into the retired counts, clears them and frees their slots.
     * A thread's writes happen before {@code isAlive()} sees it ended, so nothing is lost.
     *
     * @return rows retired
     */
    static synchronized int retireDeadThreads() {
        int retired = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            Owner owner = (Owner) OWNER_SLOTS.getAcquire(OWNERS, slot);
            int row = slot * STRIDE;
            if (owner == null || (long) LONGS.getAcquire(TABLE, row + OWNER) == 0) {
                continue; // free, or claimed and its id not yet written: its thread is alive
            }
            Thread thread = owner.thread.get();
            if (thread != null && thread.isAlive()) {
                continue;
            }
            for (int c = 0; c < MAX_COLUMNS; c++) {
                RETIRED[c] += (long) LONGS.getAcquire(TABLE, row + FIRST_COLUMN + c);
            }
            retiredTableBytes = fold(retiredTableBytes, owner.tableBytes);
            retiredUserBytes = fold(retiredUserBytes, owner.userBytes);
            retiredTableFallbacks = fold(retiredTableFallbacks, owner.tableFallbacks);
            // cleared for the next owner, whose claim (a CAS on the freed slot) sees these writes
            Arrays.fill(TABLE, row, row + FIRST_COLUMN + MAX_COLUMNS, 0L);
            OWNER_SLOTS.setRelease(OWNERS, slot, null);
            retired++;
        }
        return retired;
    }

    /** Rows in use (threads that have counted and are not yet retired). */
    static synchronized int rows() {
        int n = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            if ((long) LONGS.getAcquire(TABLE, slot * STRIDE + OWNER) != 0) {
                n++;
            }
        }
        return n;
    }
}
