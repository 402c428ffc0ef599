package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HeldBuffersTest {

    static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    static final long AGE = 60 * SECOND;
    /** Some clock far from 0, so a wrong tick sum cannot hide behind small numbers. */
    static final long T0 = 7_000 * SECOND;

    @Test
    void aBufferOutLongerThanTheAgeIsStuckUntilItComesBack() {
        HeldBuffers held = new HeldBuffers(64);
        Object buffer = new Object();
        held.taken(buffer, T0);
        assertEquals(1, held.held());
        assertEquals(0, held.olderThan(T0 + 59 * SECOND, AGE), "out 59 s: not stuck yet");
        assertEquals(1, held.olderThan(T0 + 61 * SECOND, AGE), "out 61 s: stuck");
        held.given(buffer);
        assertEquals(0, held.held());
        assertEquals(0, held.olderThan(T0 + 120 * SECOND, AGE));
    }

    @Test
    void aBufferTakenAndGivenBackOftenIsNeverStuckWhateverTheClockSays() {
        // the free-list trap: a buffer that cycles is out at every look, but never for long
        HeldBuffers held = new HeldBuffers(64);
        Object buffer = new Object();
        for (long t = T0; t < T0 + 600 * SECOND; t += SECOND) {
            held.taken(buffer, t);
            assertEquals(0, held.olderThan(t + SECOND / 2, AGE));
            held.given(buffer);
        }
        assertEquals(0, held.held());
    }

    @Test
    void everyStuckBufferIsCountedExactlyAmongMoving() {
        HeldBuffers held = new HeldBuffers(4096);
        List<Object> stuck = new ArrayList<>();
        for (int i = 0; i < 992; i++) {
            Object buffer = new Object();
            stuck.add(buffer);
            held.taken(buffer, T0 + i * 1_000_000L);
        }
        List<Object> moving = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Object buffer = new Object();
            moving.add(buffer);
            held.taken(buffer, T0 + 100 * SECOND);
        }
        assertEquals(992, held.olderThan(T0 + 100 * SECOND, AGE));
        moving.forEach(held::given);
        stuck.subList(0, 200).forEach(held::given);
        assertEquals(792, held.olderThan(T0 + 100 * SECOND, AGE));
        assertEquals(792, held.held());
        assertEquals(0, held.untracked());
    }

    @Test
    void ofTwoBuffersWithOneHashTheGiveBackEndsTheYoungest() {
        HeldBuffers held = new HeldBuffers(64);
        held.taken(42, T0); // leaked, never comes back
        held.taken(42, T0 + 100 * SECOND); // a buffer that shares its hash, taken and given back
        held.given(42);
        assertEquals(1, held.olderThan(T0 + 101 * SECOND, AGE), "the old one is still stuck");
        held.given(42);
        assertEquals(0, held.held());
        held.given(42);
        assertEquals(0, held.held(), "a give-back of nothing held changes nothing");
    }

    @Test
    void aFullWindowCountsTheTakeAsUntracked() {
        HeldBuffers held = new HeldBuffers(64);
        for (int i = 0; i < HeldBuffers.PROBES + 3; i++) {
            held.taken(7, T0); // one hash, one window
        }
        assertEquals(HeldBuffers.PROBES, held.held());
        assertEquals(3, held.untracked());
    }

    @Test
    void concurrentTakesAndGiveBacksLeaveOnlyTheKeptBuffers() throws Exception {
        HeldBuffers held = new HeldBuffers(1 << 15);
        int threads = 4;
        int kept = 500;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                // one in 40 is kept out (leaked); the others come back at once
                for (int i = 0; i < 20_000; i++) {
                    Object buffer = new Object();
                    held.taken(buffer, T0);
                    if (i % 40 != 0) {
                        held.given(buffer);
                    }
                }
            });
            thread.start();
            workers.add(thread);
        }
        start.countDown();
        for (Thread thread : workers) {
            thread.join();
        }
        assertEquals(threads * kept, held.held() + held.untracked());
        assertEquals(threads * kept, held.olderThan(T0 + 61 * SECOND, AGE) + held.untracked());
    }
}
