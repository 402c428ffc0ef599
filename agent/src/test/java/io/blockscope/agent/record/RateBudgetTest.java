package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateBudgetTest {

    private static final long MS = 1_000_000L;

    @Test
    void aBurstOfOneSecondsWorthThenOneGrantPerInterval() {
        long start = 5_000 * MS;
        RateBudget budget = new RateBudget(100, start);
        assertEquals(100, grants(budget, start, 1_000), "a second's worth at once");
        assertFalse(budget.tryAcquire(start + 9 * MS), "the next grant is due 10 ms on");
        assertTrue(budget.tryAcquire(start + 10 * MS));
        assertFalse(budget.tryAcquire(start + 11 * MS));
    }

    @Test
    void aSteadyDemandGetsTheRateAndNoMore() {
        long start = -3 * MS; // System.nanoTime() may be negative
        RateBudget budget = new RateBudget(50, start);
        int granted = 0;
        for (long t = start; t <= start + 10_000 * MS; t += MS / 10) { // 10,000 asks a second for 10 s
            if (budget.tryAcquire(t)) {
                granted++;
            }
        }
        assertEquals(50 + 50 * 10, granted, "the first second's burst, then 50 a second");
    }

    @Test
    void anIdleSpellRefillsOnlyUpToOneSecondsWorth() {
        long start = 0;
        RateBudget budget = new RateBudget(10, start);
        assertEquals(10, grants(budget, start, 100));
        long later = start + 60_000 * MS;
        assertEquals(10, grants(budget, later, 100), "a minute idle does not bank a minute of grants");
    }

    @Test
    void zeroIsNoLimitAndANegativeRateIsRefused() {
        RateBudget budget = new RateBudget(0, 0);
        assertEquals(10_000, grants(budget, 0, 10_000));
        assertThrows(IllegalArgumentException.class, () -> new RateBudget(-1, 0));
    }

    private static int grants(RateBudget budget, long now, int asks) {
        int granted = 0;
        for (int i = 0; i < asks; i++) {
            if (budget.tryAcquire(now)) {
                granted++;
            }
        }
        return granted;
    }
}
