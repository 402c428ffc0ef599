package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whose heap fallbacks they are: counted under the table the allocating thread works for. */
class FallbackContextTest {

    private static final int EXHAUSTED = Counters.FALLBACK_POOL_EXHAUSTED;
    private static final int BELOW_MIN = Counters.FALLBACK_BELOW_MIN_SIZE;
    private static final Object ALLOCATOR = new Object();

    @BeforeEach
    void configure() {
        Context.configure(3, 3, call -> call);
    }

    /** A fallback of {@code bytes} a pool of 256-byte minimum would have pooled (1024+: exhausted). */
    private static void fallback(long bytes) {
        Instances.heapFallback(0, bytes, true, 256, ALLOCATOR);
    }

    @Test
    void aPooledThreadThatServedTableAThenTableBDoesNotCarryA() throws Exception {
        long[] delta = onNewThread(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:a", null);
            fallback(1024);
            Context.regionEnd();
            fallback(2048); // a's response, encoded after the region operation
            Context.restore(saved, null);
            saved = Context.callStart("bob");
            fallback(100); // b's call before it named its region: below the minimum, no table
            Context.regionStart("ns:b", null);
            fallback(4096);
            Context.regionEnd();
            Context.restore(saved, null);
            fallback(8192); // outside any call
        });
        assertEquals(2, calls(delta, "ns:a", EXHAUSTED));
        assertEquals(3072, bytes(delta, "ns:a", EXHAUSTED));
        assertEquals(1, calls(delta, "ns:b", EXHAUSTED), "b's one fallback, none of a's");
        assertEquals(4096, bytes(delta, "ns:b", EXHAUSTED));
        assertEquals(0, calls(delta, "ns:b", BELOW_MIN));
        assertEquals(1, calls(delta, null, BELOW_MIN), "before the region was named");
        assertEquals(1, calls(delta, null, EXHAUSTED), "outside any call");
        assertEquals(8192, bytes(delta, null, EXHAUSTED));
    }

    @Test
    void aFlushCountsUnderItsRegionsTable() throws Exception {
        long[] delta = onNewThread(() -> {
            long saved = Context.systemStart("ns:f", null, 1);
            fallback(65536);
            Context.restore(saved, null);
        });
        assertEquals(1, calls(delta, "ns:f", EXHAUSTED));
        assertEquals(65536, bytes(delta, "ns:f", EXHAUSTED));
    }

    @Test
    void tablesPastTheCapShareOtherAndTheTotalsStayExact() throws Exception {
        long before = Counters.HEAP_FALLBACKS[EXHAUSTED].sum();
        long[] delta = onNewThread(() -> {
            for (int i = 0; i < 7; i++) {
                long saved = Context.callStart("user");
                Context.regionStart("ns:t" + i, null);
                fallback(1024);
                Context.regionEnd();
                Context.restore(saved, null);
            }
        });
        Interned tables = Context.tables();
        assertEquals(5, tables.width(), "none, 3 tables, other");
        assertEquals(delta.length, tables.width() * CounterRows.FALLBACK_WIDTH);
        assertEquals(4, delta[CounterRows.fallbackIndex(tables.other(), EXHAUSTED)], "the 4 past the cap");
        assertEquals(1, calls(delta, "ns:t0", EXHAUSTED));
        assertEquals(1, calls(delta, "ns:t2", EXHAUSTED));
        assertEquals(7, Counters.HEAP_FALLBACKS[EXHAUSTED].sum() - before, "the unlabelled total counts each");
    }

    @Test
    void fallbacksOfEndedThreadsStayCounted() throws Exception {
        long[] delta = onNewThread(() -> {
            long saved = Context.callStart("carol");
            Context.regionStart("ns:c", null);
            fallback(1024);
            Context.restore(saved, null);
        });
        int i = CounterRows.fallbackIndex(Context.tables().id("ns:c"), EXHAUSTED);
        long total = sums()[i];
        Counter.retireDeadThreads();
        assertEquals(1, delta[i]);
        assertEquals(total, sums()[i], "the ended thread's row was retired into the totals");
    }

    private static long calls(long[] delta, String table, int reason) {
        return delta[CounterRows.fallbackIndex(Context.tables().id(table), reason)];
    }

    private static long bytes(long[] delta, String table, int reason) {
        return delta[CounterRows.fallbackIndex(Context.tables().id(table), reason) + 1];
    }

    private static long[] sums() {
        long[] byTable = new long[Context.tables().width() * 2 * Counters.FALLBACK_REASONS];
        Context.heapFallbacks(byTable);
        return byTable;
    }

    /** Runs {@code work} on a new thread (a row of the configured widths); the sums' change. */
    private static long[] onNewThread(Runnable work) throws Exception {
        long[] before = sums();
        FreshThread.run(work);
        long[] after = sums();
        for (int i = 0; i < after.length; i++) {
            after[i] -= before[i];
        }
        return after;
    }
}
