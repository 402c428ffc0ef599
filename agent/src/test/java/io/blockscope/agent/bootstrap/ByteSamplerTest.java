package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The one sampler of copies and heap fallbacks: by count, by bytes, and the weights of a sample. */
class ByteSamplerTest {

    @Test
    void offSamplesNothing() {
        assertSame(ByteSampler.OFF, ByteSampler.of(0, 0));
        assertSame(ByteSampler.OFF, ByteSampler.of(-1, -5));
        for (long bytes : new long[] {0, 1, 1 << 20, Long.MAX_VALUE}) {
            assertEquals(0, ByteSampler.OFF.draw(bytes));
        }
    }

    @Test
    void aCountOfOneSamplesEveryEventStandingForItself() {
        ByteSampler every = ByteSampler.of(1, 1 << 20);
        assertEquals(1, every.draw(100));
        assertEquals(100, every.estimatedBytes(100, 1), "a count wins over bytes");
    }

    /** 1 in N: a sample stands for N events and N times its bytes; about 1/N of events are sampled. */
    @Test
    void aCountSamplesOneInNStandingForN() {
        ByteSampler sampler = ByteSampler.of(16, 0);
        int sampled = 0;
        for (int i = 0; i < 160_000; i++) {
            long events = sampler.draw(10);
            if (events != 0) {
                assertEquals(16, events);
                assertEquals(160, sampler.estimatedBytes(10, events));
                sampled++;
            }
        }
        assertTrue(sampled > 9_000 && sampled < 11_000, "about 10,000 of 160,000 sampled, got " + sampled);
    }

    /** By bytes: an event as large as the period always, a smaller one in proportion, each for the period. */
    @Test
    void bytesSampleInProportionAndEstimateThePeriod() {
        ByteSampler sampler = ByteSampler.of(0, 1000);
        assertEquals(1, sampler.draw(1000));
        assertEquals(1, sampler.draw(5000));
        assertEquals(5000, sampler.estimatedBytes(5000, 1), "a large event stands for its own bytes");
        assertEquals(0, sampler.draw(0), "an empty event is never sampled");
        long sampledEvents = 0;
        long estimated = 0;
        int draws = 400_000;
        for (int i = 0; i < draws; i++) {
            long events = sampler.draw(10);
            if (events != 0) {
                assertEquals(100, events, "a 10-byte sample stands for 1000/10 events");
                assertEquals(1000, sampler.estimatedBytes(10, events));
                sampledEvents += events;
                estimated += sampler.estimatedBytes(10, events);
            }
        }
        // unbiased: the estimates sum to about the true totals (4,000,000 bytes, 400,000 events)
        assertTrue(Math.abs(estimated - 10L * draws) < 0.05 * 10 * draws, "estimated " + estimated);
        assertTrue(Math.abs(sampledEvents - draws) < 0.05 * draws, "events " + sampledEvents);
    }
}
