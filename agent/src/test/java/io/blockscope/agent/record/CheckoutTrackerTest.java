package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckoutTrackerTest {

    private final List<Long> held = new ArrayList<>();
    private final List<String> leaks = new ArrayList<>();
    private final CheckoutTracker tracker = new CheckoutTracker(64, new CheckoutTracker.Listener() {
        @Override
        public void returned(CheckoutTracker.Checkout checkout, long heldNanos) {
            held.add(heldNanos);
        }

        @Override
        public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
            leaks.add(checkout.site() + "/" + reason.label());
        }
    });

    /** A checkout taken at {@code site}, with no stack. */
    private static CheckoutTracker.Origin at(String site) {
        return new CheckoutTracker.Origin() {
            @Override
            public String site() {
                return site;
            }

            @Override
            public StackTraceElement[] stack() {
                return new StackTraceElement[0];
            }
        };
    }

    @Test
    void aReturnEndsTheCheckoutWithItsHoldTime() {
        Object block = new Object();
        assertTrue(tracker.track(block, 0, 1_000, at("a.B.c:1")));
        assertTrue(tracker.live() > 0);
        tracker.returned(new Object(), () -> 2_000L); // another block: no match
        assertEquals(List.of(), held);
        tracker.returned(block, () -> 5_000L);
        assertEquals(List.of(4_000L), held);
        assertEquals(0, tracker.live());
        tracker.returned(block, () -> 6_000L); // a second return of the same block finds nothing
        assertEquals(1, held.size());
    }

    @Test
    void aBlockCollectedWithoutReturnIsAGcLeakAtItsSite() throws Exception {
        trackAndDrop();
        for (int i = 0; i < 50 && leaks.isEmpty(); i++) {
            System.gc();
            Thread.sleep(20);
            tracker.pollCollected();
        }
        assertEquals(List.of("com.acme.Reader.read:7/gc"), leaks);
        assertEquals(0, tracker.live());
    }

    private void trackAndDrop() {
        tracker.track(new Object(), 0, System.nanoTime(), at("com.acme.Reader.read:7"));
    }

    @Test
    void aBlockHeldPastTheAgeIsAnAgeLeakOnce() {
        Object block = new Object();
        tracker.track(block, 1, 0, at("com.acme.Holder.hold:3"));
        tracker.expire(999, 1_000);
        assertEquals(List.of(), leaks);
        tracker.expire(1_001, 1_000);
        tracker.expire(5_000, 1_000);
        assertEquals(List.of("com.acme.Holder.hold:3/age"), leaks);
        tracker.returned(block, () -> 6_000L); // a late return is no longer tracked
        assertEquals(List.of(), held);
    }

    @Test
    void aFullTableDropsCheckoutsInsteadOfGrowing() {
        List<Object> blocks = new ArrayList<>();
        int tracked = 0;
        for (int i = 0; i < 1_000; i++) {
            Object block = new Object();
            blocks.add(block);
            if (tracker.track(block, 0, 0, at("s"))) {
                tracked++;
            }
        }
        assertTrue(tracked <= 64, "tracked " + tracked);
        assertEquals(1_000 - tracked, tracker.dropped());
        assertEquals(tracked, tracker.live());
        blocks.forEach(b -> tracker.returned(b, () -> 1L));
        assertEquals(tracked, held.size());
        assertEquals(0, tracker.live());
    }

    /**
     * Returns are matched by reference against a short list of live checkouts before any identity
     * hash is taken; with more live checkouts than the list holds, by hash as before. Both ways a
     * tracked block's return ends its checkout and an untracked block's return ends nothing.
     */
    @Test
    void returnsAreMatchedWhetherTheLiveCheckoutsFitTheShortListOrNot() {
        CheckoutTracker big = new CheckoutTracker(4096, new CheckoutTracker.Listener() {
            @Override
            public void returned(CheckoutTracker.Checkout checkout, long heldNanos) {
                held.add(heldNanos);
            }

            @Override
            public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
                leaks.add(checkout.site() + "/" + reason.label());
            }
        });
        List<Object> blocks = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Object block = new Object();
            blocks.add(block);
            assertTrue(big.track(block, 0, 0, at("a.B.c:1")));
        }
        big.returned(new Object(), () -> 1L);
        assertEquals(List.of(), held);
        for (Object block : blocks) {
            big.returned(block, () -> 10L);
        }
        assertEquals(20, held.size(), "20 live checkouts (more than the short list): all matched by hash");
        assertEquals(0, big.live());

        Object one = new Object();
        assertTrue(big.track(one, 0, 0, at("a.B.c:1")));
        for (int i = 0; i < 1000; i++) {
            big.returned(new Object(), () -> 1L);
        }
        assertEquals(20, held.size(), "untracked returns end nothing");
        big.returned(one, () -> 30L);
        assertEquals(30L, held.get(20), "the listed checkout is matched");
        assertEquals(0, big.live());
        assertEquals(List.of(), leaks);
    }
}
