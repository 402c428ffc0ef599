package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The storage behind every {@link Counter}: one row of longs per thread, one column per counter.
 * A thread adds only into its own row, so an increment is a plain load and a release store (a
 * plain {@code mov} on x86): no atomic read-modify-write, no lock, and no cache line shared with
 * another thread (rows are padded). {@link java.util.concurrent.atomic.LongAdder} pays a CAS per
 * increment; on the read path that was most of a probe's cost.
 *
 * <p>A thread finds its row without a {@code ThreadLocal}: its id (a field of {@code Thread})
 * hashed into a fixed table, checked against the row's owner id, within {@link #PROBES} slots.
 * Thread ids are never reused, so a row is never shared. A thread's first count allocates its row
 * (once); a thread that finds no free slot adds atomically into a shared row instead, still
 * exact. Rows of dead threads are folded into a retired row and their slots freed by
 * {@link #retireDeadThreads}, at scrape time, so thread churn does not fill the table.
 *
 * <p>Sums read each row with acquire loads under this class's lock (scrape side only): a count
 * seen in one column implies the counts its thread made before it in others (a return is never
 * seen without its checkout).
 */
final class CounterRows {

    /** Columns: every {@link Counter} takes one. */
    static final int MAX_COLUMNS = 96;
    /** Longs on each side of a row's columns, so two rows never share a cache line. */
    private static final int PAD = 8;

    private static final int SLOT_BITS = 9;
    private static final int SLOTS = 1 << SLOT_BITS;
    private static final int PROBES = 8;
    /** The table's size, for tests that fill it. */
    static final int SLOTS_FOR_TEST = SLOTS;

    /** Past the columns, in each row: this thread's calls to skip before its next sampled one ... */
    private static final int SKIP = PAD + MAX_COLUMNS;
    /** ... and the rate that skip count was drawn for (0: none drawn yet). Only the owner reads both. */
    private static final int SKIP_RATE = SKIP + 1;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle ROW_SLOTS = MethodHandles.arrayElementVarHandle(Row[].class);

    private static final Row[] ROWS = new Row[SLOTS];
    /** Counts of threads that found no slot: added atomically. */
    private static final long[] SHARED = new long[PAD + MAX_COLUMNS + 2 + PAD];
    /** Counts of rows whose thread has ended; guarded by the class lock. */
    private static final long[] RETIRED = new long[MAX_COLUMNS];

    private static int columns;

    private CounterRows() {}

    /** One thread's counts. Final fields: a row read through a racy slot is fully built. */
    private static final class Row {
        final long tid;
        final WeakReference<Thread> thread;
        final long[] values = new long[PAD + MAX_COLUMNS + 2 + PAD];
        /** Written and read by the owner only (receiver probes). */
        final Object[] receiver = new Object[2];

        Row(Thread thread) {
            this.tid = thread.getId();
            this.thread = new WeakReference<>(thread);
        }
    }

    static synchronized int newColumn() {
        if (columns == MAX_COLUMNS) {
            throw new IllegalStateException("more than " + MAX_COLUMNS + " counters");
        }
        return columns++;
    }

    /** Adds {@code x} to {@code column} of the current thread's row. */
    static void add(int column, long x) {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int home = home(tid);
        Row row = ROWS[home];
        if (row != null && row.tid == tid) {
            long[] values = row.values;
            int i = PAD + column;
            LONGS.setRelease(values, i, values[i] + x);
            return;
        }
        addSlow(current, tid, home, column, x);
    }

    /**
     * Adds 1 to {@code column} and says whether this call is one of the 1 in {@code rate} sampled
     * (0: none; 1: all). The decision is a countdown in the thread's row: the number of calls to skip
     * is drawn from the geometric distribution once per sample, so the sampled calls are exactly a
     * Bernoulli(1/rate) sample, at the price of a decrement per call instead of a random draw.
     */
    static boolean incrementAndSample(int column, int rate) {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int home = home(tid);
        Row row = ROWS[home];
        if (row == null || row.tid != tid) {
            addSlow(current, tid, home, column, 1L);
            return rate == 1 || (rate > 1 && ThreadLocalRandom.current().nextInt(rate) == 0);
        }
        long[] values = row.values;
        int i = PAD + column;
        LONGS.setRelease(values, i, values[i] + 1L);
        if (rate <= 1) {
            return rate == 1;
        }
        long skip = values[SKIP];
        if (values[SKIP_RATE] != rate) {
            // the thread's first sampled count, or the rate changed: start a fresh countdown
            values[SKIP_RATE] = rate;
            skip = skipsBeforeSample(rate);
        }
        if (skip > 0) {
            values[SKIP] = skip - 1;
            return false;
        }
        values[SKIP] = skipsBeforeSample(rate);
        return true;
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
        int home = home(tid);
        Row row = ROWS[home];
        if (row != null && row.tid == tid) {
            long[] values = row.values;
            int i = PAD + a;
            int j = PAD + b;
            // the second store is the release that publishes both
            values[i] += x;
            LONGS.setRelease(values, j, values[j] + y);
            return;
        }
        addSlow(current, tid, home, a, x);
        addSlow(current, tid, home, b, y);
    }

    private static void addSlow(Thread current, long tid, int home, int column, long x) {
        Row row = rowSlow(current, tid, home);
        if (row == null) {
            LONGS.getAndAdd(SHARED, PAD + column, x);
            return;
        }
        long[] values = row.values;
        int i = PAD + column;
        LONGS.setRelease(values, i, values[i] + x);
    }

    /** The thread's row past its home slot, or a newly claimed one; null when none is free. */
    private static Row rowSlow(Thread current, long tid, int home) {
        // its row first (it may sit past a slot freed since), then a free slot to claim
        for (int probe = 0; probe < PROBES; probe++) {
            Row row = (Row) ROW_SLOTS.getAcquire(ROWS, (home + probe) & (SLOTS - 1));
            if (row != null && row.tid == tid) {
                return row;
            }
        }
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & (SLOTS - 1);
            if (ROW_SLOTS.getAcquire(ROWS, slot) == null) {
                Row mine = new Row(current);
                if (ROW_SLOTS.compareAndSet(ROWS, slot, null, mine)) {
                    return mine;
                }
            }
        }
        return null;
    }

    /**
     * This thread's {receiver class, method name} slot for receiver probes (see
     * {@code Bridge.receiverSlot}): kept in its row, so the advice finds it as counters do, without
     * a {@code ThreadLocal} map lookup; a thread without a row uses a {@code ThreadLocal}.
     */
    static Object[] receiverSlot() {
        Thread current = Thread.currentThread();
        long tid = current.getId();
        int home = home(tid);
        Row row = ROWS[home];
        if (row == null || row.tid != tid) {
            row = rowSlow(current, tid, home);
            if (row == null) {
                return NO_ROW_RECEIVER.get();
            }
        }
        return row.receiver;
    }

    private static final ThreadLocal<Object[]> NO_ROW_RECEIVER = ThreadLocal.withInitial(() -> new Object[2]);

    /** Fibonacci hashing of the id: consecutive ids spread over the table. */
    private static int home(long tid) {
        return (int) ((tid * 0x9E3779B97F4A7C15L) >>> (64 - SLOT_BITS));
    }

    /** The column's total over all rows, retired rows and the shared row. */
    static synchronized long sum(int column) {
        long total = RETIRED[column] + (long) LONGS.getVolatile(SHARED, PAD + column);
        for (int slot = 0; slot < SLOTS; slot++) {
            Row row = (Row) ROW_SLOTS.getAcquire(ROWS, slot);
            if (row != null) {
                total += (long) LONGS.getAcquire(row.values, PAD + column);
            }
        }
        return total;
    }

    /**
     * Folds the rows of ended threads into the retired counts and frees their slots. A thread's
     * writes happen before {@code isAlive()} sees it ended, so nothing is lost.
     *
     * @return rows retired
     */
    static synchronized int retireDeadThreads() {
        int retired = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            Row row = (Row) ROW_SLOTS.getAcquire(ROWS, slot);
            if (row == null) {
                continue;
            }
            Thread thread = row.thread.get();
            if (thread != null && thread.isAlive()) {
                continue;
            }
            for (int c = 0; c < MAX_COLUMNS; c++) {
                RETIRED[c] += (long) LONGS.getAcquire(row.values, PAD + c);
            }
            ROW_SLOTS.setRelease(ROWS, slot, null);
            retired++;
        }
        return retired;
    }

    /** Rows in use (threads that have counted and are not yet retired). */
    static synchronized int rows() {
        int n = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            if (ROW_SLOTS.getAcquire(ROWS, slot) != null) {
                n++;
            }
        }
        return n;
    }
}
