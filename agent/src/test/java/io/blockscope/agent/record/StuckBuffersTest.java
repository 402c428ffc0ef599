package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.HeldBuffers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StuckBuffersTest {

    static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    static final long T0 = 5_000 * SECOND;

    private final HeldBuffers held = new HeldBuffers(64);
    private final StuckBuffers stuck = new StuckBuffers(held, Duration.ofSeconds(60));

    @AfterEach
    void sparseAgain() {
        Checkouts.denseBufferSites(false);
    }

    @Test
    void aBufferHeldForSecondsSwitchesTakesToDenseSamplingUntilItComesBack() {
        Object buffer = new Object();
        held.taken(buffer, T0);
        stuck.check(T0 + 3 * SECOND);
        assertEquals(0, stuck.stuck());
        assertFalse(Checkouts.denseBufferSites(), "out 3 s: takes sampled as any checkout");
        stuck.check(T0 + 30 * SECOND);
        assertEquals(0, stuck.stuck(), "not stuck before leak.age");
        assertTrue(Checkouts.denseBufferSites(), "out 30 s: suspect, every take's site is wanted");
        stuck.check(T0 + 61 * SECOND);
        assertEquals(1, stuck.stuck());
        assertTrue(Checkouts.denseBufferSites());
        held.given(buffer);
        stuck.check(T0 + 90 * SECOND);
        assertEquals(0, stuck.stuck());
        assertFalse(Checkouts.denseBufferSites(), "nothing stuck any more");
    }

    @Test
    void aShortLeakAgeIsItsOwnSuspectAge() {
        StuckBuffers quick = new StuckBuffers(held, Duration.ofSeconds(2));
        held.taken(new Object(), T0);
        quick.check(T0 + 3 * SECOND);
        assertEquals(1, quick.stuck());
        assertTrue(Checkouts.denseBufferSites());
    }

    @Test
    void denseSamplingEndsAnHourAfterTheCountLastRoseAndComesBackWithTheNextRise() {
        held.taken(new Object(), T0); // a one-off leak: stuck for good
        long seen = T0 + 61 * SECOND;
        stuck.check(seen);
        assertTrue(Checkouts.denseBufferSites());
        long hour = StuckBuffers.DENSE_FOR.toNanos();
        stuck.check(seen + hour - SECOND);
        assertTrue(Checkouts.denseBufferSites(), "within the hour");
        stuck.check(seen + hour + SECOND);
        assertFalse(Checkouts.denseBufferSites(), "the count has not risen for an hour: sparse again");
        assertEquals(1, stuck.stuck(), "still counted");
        held.taken(new Object(), seen + hour); // it leaks again
        stuck.check(seen + hour + 61 * SECOND);
        assertEquals(2, stuck.stuck());
        assertTrue(Checkouts.denseBufferSites(), "a new stuck buffer: dense again");
    }
}
