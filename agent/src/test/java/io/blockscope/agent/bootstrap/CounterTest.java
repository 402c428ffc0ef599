package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The per-thread-row counters: exact under concurrency, thread churn and a full row table. */
class CounterTest {

    @Test
    void countsFromManyThreadsAddUpExactly() throws Exception {
        Counter counter = new Counter();
        Counter other = new Counter();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    counter.increment();
                    other.add(3);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1_600_000, counter.sum());
        assertEquals(4_800_000, other.sum(), "columns do not mix");
    }

    @Test
    void rowsOfEndedThreadsAreRetiredWithoutChangingTheTotals() throws Exception {
        Counter counter = new Counter();
        for (int round = 0; round < 20; round++) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 50; t++) {
                threads.add(new Thread(() -> counter.add(7)));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            // 1,000 short-lived threads in all: more than the table's slots, unless rows are retired
            int before = Counter.threadRows();
            int retired = Counter.retireDeadThreads();
            assertTrue(retired >= 50, "the 50 ended threads' rows are retired, got " + retired);
            assertEquals(before - retired, Counter.threadRows());
            assertEquals(7L * 50 * (round + 1), counter.sum());
        }
    }

    /** More live threads than the table holds rows: the rest count atomically in the shared row. */
    @Test
    void threadsWithoutARowStillCountExactly() throws Exception {
        Counter counter = new Counter();
        int threads = CounterRows.SLOTS_FOR_TEST + 100;
        CountDownLatch counted = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 1000; i++) {
                        counter.increment();
                    }
                    counted.countDown();
                    try {
                        release.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                thread.setDaemon(true);
                thread.start();
                started.add(thread);
            }
            assertTrue(counted.await(120, TimeUnit.SECONDS));
            assertTrue(Counter.threadRows() <= CounterRows.SLOTS_FOR_TEST);
            assertEquals(1000L * threads, counter.sum(), "live threads without a row counted too");
        } finally {
            release.countDown();
        }
        for (Thread t : started) {
            t.join();
        }
        Counter.retireDeadThreads();
        assertEquals(1000L * threads, counter.sum());
    }

    /**
     * The countdown samples like a coin toss per call: about 1 in rate, with geometric gaps (mean
     * rate, standard deviation about rate), not every rate-th call; rates 0 and 1 mean never and
     * always, and a new rate takes effect at once.
     */
    @Test
    void sampledCallsAreABernoulliSampleOfTheirRate() {
        Counter counter = new Counter();
        int rate = 100;
        int calls = 1_000_000;
        long sampled = 0;
        double sumGaps = 0;
        double sumSquares = 0;
        long last = -1;
        for (int i = 0; i < calls; i++) {
            if (counter.incrementAndSample(rate)) {
                if (last >= 0) {
                    double gap = i - last;
                    sumGaps += gap;
                    sumSquares += gap * gap;
                }
                last = i;
                sampled++;
            }
        }
        assertEquals(calls, counter.sum(), "every call counted, sampled or not");
        double expected = calls / (double) rate;
        assertTrue(Math.abs(sampled - expected) < 6 * Math.sqrt(expected), "sampled " + sampled);
        double mean = sumGaps / (sampled - 1);
        double sd = Math.sqrt(sumSquares / (sampled - 1) - mean * mean);
        assertTrue(Math.abs(mean - rate) < 5, "mean gap " + mean);
        assertTrue(sd > 0.9 * rate && sd < 1.1 * rate, "gaps vary as a geometric's do, sd " + sd);

        for (int i = 0; i < 1000; i++) {
            assertTrue(counter.incrementAndSample(1), "rate 1 samples every call");
            assertTrue(!counter.incrementAndSample(0), "rate 0 samples none");
        }
        long atTwo = 0;
        for (int i = 0; i < 10_000; i++) {
            atTwo += counter.incrementAndSample(2) ? 1 : 0;
        }
        assertTrue(Math.abs(atTwo - 5000) < 6 * Math.sqrt(2500), "a new rate applies at once: " + atTwo);
    }

    @Test
    void skipCountsHaveTheGeometricMean() {
        double sum = 0;
        for (int i = 0; i < 100_000; i++) {
            sum += CounterRows.skipsBeforeSample(1024);
        }
        // failures before a success at p = 1/1024: mean 1023, sd about 1023; over 1e5 draws sd of mean ~3.2
        assertTrue(Math.abs(sum / 100_000 - 1023) < 20, "mean skip " + sum / 100_000);
    }
}
