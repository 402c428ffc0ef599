package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.agent.bootstrap.CheckoutTable;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StuckCheckoutsTest {

    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aCheckoutUntouchedForLeakAgeIsStuckWithinTwoEpochsMore() {
        CheckoutTable table = new CheckoutTable(64);
        long t0 = 1_000 * SECOND;
        StuckCheckouts stuck = new StuckCheckouts(table, Duration.ofSeconds(60), 1, t0);
        table.add(new Object(), 0);
        // scrapes every 15 s: one epoch each
        long t = t0;
        for (; t <= t0 + 60 * SECOND; t += 15 * SECOND) {
            stuck.check(t);
            assertEquals(0, stuck.stuck(0), "not before leak.age: " + (t - t0) / SECOND + " s");
        }
        for (; t <= t0 + 90 * SECOND; t += 15 * SECOND) {
            stuck.check(t);
        }
        assertEquals(1, stuck.stuck(0), "by leak.age plus two epochs");
    }

    @Test
    void rareScrapesMakeLongerEpochsNeverEarlierCounts() {
        CheckoutTable table = new CheckoutTable(64);
        long t0 = 1_000 * SECOND;
        StuckCheckouts stuck = new StuckCheckouts(table, Duration.ofSeconds(60), 1, t0);
        table.add(new Object(), 0);
        for (long t = t0; t <= t0 + 240 * SECOND; t += 60 * SECOND) {
            stuck.check(t);
            assertEquals(0, stuck.stuck(0), "one epoch a minute: not stuck after " + (t - t0) / SECOND + " s");
        }
        stuck.check(t0 + 300 * SECOND);
        assertEquals(1, stuck.stuck(0));
    }
}
