package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckoutTableTest {

    @Test
    void aBlockComesBackOncePerCheckoutUnderItsTier() {
        CheckoutTable table = new CheckoutTable(64);
        Object block = new Object();
        assertTrue(table.add(block, 1));
        assertTrue(table.add(block, 1));
        assertEquals(2, table.size());
        assertEquals(1, table.remove(block));
        assertEquals(1, table.remove(block));
        assertEquals(-1, table.remove(block), "both checkouts already came back");
        assertEquals(0, table.size());
    }

    @Test
    void aBlockThatWasNeverCheckedOutIsNoReturn() {
        CheckoutTable table = new CheckoutTable(64);
        table.add(new Object(), 0);
        assertEquals(-1, table.remove(new Object()));
        assertEquals(1, table.size());
    }

    @Test
    void theSameBlockInTwoTiersKeepsBothTiers() {
        CheckoutTable table = new CheckoutTable(64);
        Object block = new Object();
        table.add(block, 2);
        table.add(block, 5);
        List<Integer> tiers = new ArrayList<>(List.of(table.remove(block), table.remove(block)));
        tiers.sort(null);
        assertEquals(List.of(2, 5), tiers);
    }

    @Test
    void aFullWindowRefusesACheckoutInsteadOfGrowing() {
        CheckoutTable table = new CheckoutTable(64);
        List<Object> kept = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 1_000; i++) {
            Object block = new Object();
            kept.add(block);
            if (!table.add(block, 0)) {
                refused++;
            }
        }
        assertEquals(64, table.capacity());
        assertTrue(refused >= 1_000 - 64, "refused " + refused);
        assertEquals(1_000 - refused, table.size());
        long removed = kept.stream().filter(b -> table.remove(b) >= 0).count();
        assertEquals(1_000 - refused, removed, "every accepted checkout, and only those, comes back");
        assertEquals(0, table.size());
    }

    @Test
    void holdsNoReferenceToTheBlock() throws InterruptedException {
        CheckoutTable table = new CheckoutTable(64);
        Object block = new Object();
        table.add(block, 0);
        WeakReference<Object> ref = new WeakReference<>(block);
        block = null;
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get(), "a checked-out block the reader dropped must still be collectable (leak detection)");
        assertEquals(1, table.size());
    }

    @Test
    void concurrentCheckoutsAndReturnsBalance() throws InterruptedException {
        CheckoutTable table = new CheckoutTable(1 << 12);
        Object[] shared = {new Object(), new Object(), new Object()};
        int threads = 4;
        long[] unmatched = new long[threads];
        Race.run(threads, id -> {
            for (int i = 0; i < 50_000; i++) {
                Object block = shared[i % shared.length];
                if (!table.add(block, id)) {
                    unmatched[id]++;
                } else if (table.remove(block) < 0) {
                    unmatched[id]++;
                }
            }
        });
        for (int t = 0; t < threads; t++) {
            assertEquals(0, unmatched[t], "thread " + t);
        }
        assertEquals(0, table.size());
        assertFalse(table.remove(shared[0]) >= 0);
    }

    @Test
    void anEntryUntouchedForTheGivenEpochsIsStuckUntilTouched() {
        CheckoutTable table = new CheckoutTable(64);
        Object leaked = new Object();
        Object busy = new Object();
        table.add(leaked, 1);
        table.add(leaked, 1); // two references, neither given back
        for (int e = 0; e < 5; e++) {
            assertEquals(0, table.stuck(5, 2)[1], "epoch " + e + ": not yet");
            table.advance();
            table.add(busy, 1); // busy: taken and given back every epoch
            table.remove(busy);
        }
        assertEquals(2, table.stuck(5, 2)[1], "both references of the untouched block");
        for (int e = 0; e < 300; e++) {
            table.advance(); // past a whole cycle of epochs: still stuck
        }
        assertEquals(2, table.stuck(5, 2)[1]);
        assertEquals(1, table.remove(leaked), "one of them comes back: touched");
        assertEquals(0, table.stuck(5, 2)[1]);
        assertEquals(1, table.size(), "one reference still out");
    }

    @Test
    void stuckCountsAreByTier() {
        CheckoutTable table = new CheckoutTable(64);
        table.add(new Object(), 0);
        table.add(new Object(), 2);
        table.add(new Object(), 2);
        for (int e = 0; e < 2; e++) {
            table.advance();
        }
        long[] stuck = table.stuck(2, 3);
        assertEquals(1, stuck[0]);
        assertEquals(0, stuck[1]);
        assertEquals(2, stuck[2]);
    }

    @Test
    void aTouchedCheckoutIsNeverStuckWhileItsHolderPassesBy() {
        // a slow scanner on a BucketCache block: checked out once, shipped every other epoch
        CheckoutTable table = new CheckoutTable(64);
        Object block = new Object();
        assertTrue(table.add(block, 1));
        for (int e = 0; e < 40; e++) {
            table.advance();
            if (e % 2 == 0) {
                table.touched(block);
            }
            assertEquals(0, table.stuck(5, 2)[1], "epoch " + e);
        }
        for (int e = 0; e < 3; e++) { // last touched 1 epoch ago
            table.advance();
            assertEquals(0, table.stuck(5, 2)[1], "last touched " + (e + 2) + " epochs ago");
        }
        table.advance();
        assertEquals(1, table.stuck(5, 2)[1], "no longer touched: stuck");
        assertEquals(1, table.size(), "a touch is no checkout");
        assertEquals(1, table.remove(block));
        assertEquals(0, table.size());
    }

    @Test
    void aTouchUnsticksAnEntryFoundStuckWithoutChangingItsCount() {
        CheckoutTable table = new CheckoutTable(64);
        Object block = new Object();
        table.add(block, 1);
        table.add(block, 1);
        for (int e = 0; e < 5; e++) {
            table.advance();
        }
        assertEquals(2, table.stuck(5, 2)[1]);
        table.touched(block);
        assertEquals(0, table.stuck(5, 2)[1]);
        assertEquals(2, table.size());
        assertEquals(1, table.remove(block));
        assertEquals(1, table.remove(block));
        assertEquals(-1, table.remove(block));
    }

    @Test
    void aTouchOfABlockNotCheckedOutChangesNothing() {
        // a block read from disk (its pool buffers are touched instead) or a heap block
        CheckoutTable table = new CheckoutTable(64);
        Object leaked = new Object();
        table.add(leaked, 1);
        for (int e = 0; e < 5; e++) {
            table.advance();
            table.touched(new Object());
        }
        assertEquals(1, table.stuck(5, 2)[1]);
        assertEquals(1, table.size());
    }

    @Test
    void touchesRacingReturnsAndScrapesNeitherResurrectNorLoseCheckouts() throws Exception {
        CheckoutTable table = new CheckoutTable(1 << 14);
        List<Object> kept = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Object block = new Object();
            kept.add(block);
            assertTrue(table.add(block, 1));
        }
        int threads = 4;
        int rounds = 20_000;
        long[] unmatched = new long[threads];
        Race.run(threads, worker -> {
            for (int i = 0; i < rounds; i++) {
                Object keptBlock = kept.get(i % kept.size());
                if (worker == 0) {
                    // the scrape side: moves the epoch on and marks what it finds stuck
                    table.advance();
                    table.stuck(5, 2);
                } else if (worker % 2 == 1) {
                    // a scanner: checks a block out, ships (touches it) while a return of it races
                    Object block = new Object();
                    if (!table.add(block, 1)) {
                        unmatched[worker]++;
                        continue;
                    }
                    table.touched(block);
                    table.touched(keptBlock);
                    if (table.remove(block) != 1) {
                        unmatched[worker]++;
                    }
                    table.touched(block); // after its return: must not bring it back
                } else {
                    table.touched(keptBlock);
                }
            }
        });
        for (int w = 0; w < threads; w++) {
            assertEquals(0, unmatched[w], "worker " + w);
        }
        assertEquals(kept.size(), table.size(), "none resurrected, none lost");
        kept.forEach(table::touched);
        assertEquals(0, table.stuck(5, 2)[1], "every kept checkout touched just now");
        for (int e = 0; e < 5; e++) {
            table.advance();
        }
        assertEquals(kept.size(), table.stuck(5, 2)[1], "untouched since: every one stuck");
        for (Object block : kept) {
            assertEquals(1, table.remove(block));
        }
        assertEquals(0, table.size());
    }
}
