package io.blockscope.agent.bootstrap;

/**
 * A monotonic count the probes bump on every call: the hot-path replacement for
 * {@link java.util.concurrent.atomic.LongAdder}, with the same {@code increment}/{@code add}/
 * {@code sum} calls. Each thread adds into its own row of {@link CounterRows} with a plain store
 * (no CAS); {@link #sum} adds the rows up, exactly, at scrape time.
 */
public final class Counter {

    private final int column;

    Counter() {
        this(CounterRows.newColumn());
    }

    /** The counter of a column already reserved ({@link CounterRows#reserve}). */
    Counter(int column) {
        this.column = column;
    }

    /** Its column in every thread's row. */
    int column() {
        return column;
    }

    public void increment() {
        CounterRows.add(column, 1L);
    }

    public void add(long x) {
        CounterRows.add(column, x);
    }

    /**
     * Adds 1 and says whether this call is sampled, 1 in {@code rate} (0: never, 1: always), from a
     * per-thread countdown: cheaper than a random draw per call, same distribution.
     */
    public boolean incrementAndSample(int rate) {
        return CounterRows.incrementAndSample(column, rate);
    }

    /** Adds {@code x} to {@code a} and {@code y} to {@code b} (calls and bytes of one event): one row lookup. */
    public static void add(Counter a, long x, Counter b, long y) {
        CounterRows.add(a.column, x, b.column, y);
    }

    /** The total over all threads; exact once the counting threads' adds happened before this call. */
    public long sum() {
        return CounterRows.sum(column);
    }

    /**
     * Folds the counts of ended threads into the totals and frees their rows (scrape time; the
     * totals do not change).
     *
     * @return rows retired
     */
    public static int retireDeadThreads() {
        return CounterRows.retireDeadThreads();
    }

    /** Rows in use: threads that have counted and are not yet retired. */
    public static int threadRows() {
        return CounterRows.rows();
    }
}
