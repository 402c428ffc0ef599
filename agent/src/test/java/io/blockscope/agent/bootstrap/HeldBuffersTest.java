package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
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
    void stuckBuffersCountUnderTheTableOfTheTakeThatHoldsTheirSlot() {
        HeldBuffers held = new HeldBuffers(64);
        held.taken(42, T0, 1); // leaked by table 1
        held.taken(43, T0, 1); // table 1's, given back; its slot then taken for table 2
        held.given(43);
        held.taken(43, T0, 2);
        held.taken(44, T0, 9); // a table id past the array: the last element (other)
        held.taken(45, T0 + 100 * SECOND, 1); // young: not stuck
        held.touched(42, T0 + 10 * SECOND); // a touch restarts the age, and keeps the taker's table
        int[] byTable = new int[4];
        assertEquals(3, held.olderThan(T0 + 75 * SECOND, AGE, byTable));
        assertEquals(List.of(0, 1, 1, 1), List.of(byTable[0], byTable[1], byTable[2], byTable[3]));
        assertEquals(3, held.olderThan(T0 + 75 * SECOND, AGE), "the same count as without tables");
        byTable = new int[4];
        assertEquals(2, held.olderThan(T0 + 65 * SECOND, AGE, byTable), "42 touched at 10 s: 55 s old");
        assertEquals(List.of(0, 0, 1, 1), List.of(byTable[0], byTable[1], byTable[2], byTable[3]));
    }

    @Test
    void aTakeOnAPooledThreadCountsUnderTheCallsTableNotThePreviousOnes() throws Exception {
        HeldBuffers held = new HeldBuffers(64);
        Checkouts.holdBuffers(held);
        Context.configure(4, 4, call -> call);
        Object leaked = new Object();
        Object alsoLeaked = new Object();
        try {
            Thread thread = new Thread(() -> {
                long saved = Context.callStart("alice");
                Context.regionStart("ns:a", null);
                Checkouts.bufferTake(0, false, new Object());
                Context.regionEnd();
                Context.restore(saved, null);
                saved = Context.callStart("bob");
                Context.regionStart("ns:b", null);
                Checkouts.bufferTake(0, false, leaked);
                Context.regionEnd();
                Context.restore(saved, null);
                Checkouts.bufferTake(0, false, alsoLeaked); // outside any call
            });
            thread.start();
            thread.join();
        } finally {
            Checkouts.holdBuffers(null);
        }
        int[] byTable = new int[Context.tables().width()];
        assertEquals(3, held.olderThan(System.nanoTime() + 2 * AGE, AGE, byTable));
        assertEquals(1, byTable[Context.tables().id("ns:a")]);
        assertEquals(1, byTable[Context.tables().id("ns:b")], "b's take, not a's table");
        assertEquals(1, byTable[0], "none outside calls");
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
        Race.run(threads, worker -> {
            // one in 40 is kept out (leaked); the others come back at once
            for (int i = 0; i < 20_000; i++) {
                Object buffer = new Object();
                held.taken(buffer, T0);
                if (i % 40 != 0) {
                    held.given(buffer);
                }
            }
        });
        assertEquals(threads * kept, held.held() + held.untracked());
        assertEquals(threads * kept, held.olderThan(T0 + 61 * SECOND, AGE) + held.untracked());
    }

    @Test
    void aTouchedBufferIsNeverStuckWhileItsHolderPassesBy() {
        // a slow scanner: one block held for 10 minutes, its scanner shipped every 7 s
        HeldBuffers held = new HeldBuffers(64);
        Object buffer = new Object();
        held.taken(buffer, T0);
        for (long t = T0 + 7 * SECOND; t < T0 + 600 * SECOND; t += 7 * SECOND) {
            held.touched(buffer, t);
            assertEquals(0, held.olderThan(t + 59 * SECOND, AGE));
        }
        assertEquals(1, held.olderThan(T0 + 700 * SECOND, AGE), "no longer touched: stuck again");
        held.given(buffer);
        assertEquals(0, held.held());
    }

    @Test
    void aTouchOfABufferNotHeldChangesNothing() {
        HeldBuffers held = new HeldBuffers(64);
        Object stuck = new Object();
        held.taken(stuck, T0);
        held.touched(new Object(), T0 + 100 * SECOND); // a heap block, or a BucketCache buffer
        assertEquals(1, held.held());
        assertEquals(1, held.olderThan(T0 + 100 * SECOND, AGE));
    }

    @Test
    void aTouchNeverMovesAnEntryBack() {
        HeldBuffers held = new HeldBuffers(64);
        held.taken(7, T0 + 100 * SECOND);
        held.touched(7, T0); // a touch that read its clock before the take
        assertEquals(0, held.olderThan(T0 + 159 * SECOND, AGE));
    }

    @Test
    void ofTwoBuffersWithOneHashTheTouchRestampsTheYoungestAndNeverHidesTheOlder() {
        HeldBuffers held = new HeldBuffers(64);
        held.taken(42, T0); // leaked
        held.taken(42, T0 + 30 * SECOND); // live, its scanner ships every 7 s
        for (long t = T0 + 37 * SECOND; t < T0 + 300 * SECOND; t += 7 * SECOND) {
            held.touched(42, t);
            assertEquals(t > T0 + 60 * SECOND ? 1 : 0, held.olderThan(t, AGE), "only the leaked one, at " + t);
        }
        held.given(42); // the scanner closes: the live one goes
        assertEquals(1, held.held());
        assertEquals(1, held.olderThan(T0 + 300 * SECOND, AGE));
    }

    @Test
    void touchesRacingGiveBacksNeitherResurrectNorLoseEntries() throws Exception {
        HeldBuffers held = new HeldBuffers(1 << 15);
        int threads = 4;
        int rounds = 20_000;
        List<Object> kept = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Object buffer = new Object();
            kept.add(buffer);
            held.taken(buffer, T0);
        }
        Race.run(threads, worker -> {
            for (int i = 0; i < rounds; i++) {
                if (worker % 2 == 0) {
                    // a holder: take, touch it (and the kept ones), give it back
                    Object buffer = new Object();
                    held.taken(buffer, T0 + i);
                    held.touched(buffer, T0 + 100 * SECOND);
                    held.touched(kept.get(i % kept.size()), T0 + 100 * SECOND);
                    held.given(buffer);
                } else {
                    held.touched(kept.get(i % kept.size()), T0 + 100 * SECOND);
                }
            }
        });
        assertEquals(kept.size() + held.untracked(), held.held() + held.untracked());
        assertEquals(0, held.olderThan(T0 + 159 * SECOND, AGE), "every kept buffer was touched at 100 s");
        assertEquals(kept.size(), held.olderThan(T0 + 161 * SECOND, AGE));
        kept.forEach(held::given);
        assertEquals(0, held.held());
    }
}
