package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import jdk.internal.vm.annotation.DontInline;

/**
 * Block lookups, checkouts and returns, the entry points the block probes' advice calls: counts
 * hits, misses and returns, matches a return to the checkout that handed the block out where the
 * profile asks for it, and hands sampled checkouts (and returns while any is tracked) to the
 * {@link Sink}, out of line (see {@link Bridge}).
 */
public final class Checkouts {

    /** 1 in {@code checkoutSample} hits is tracked for hold time and leaks; 0 turns tracking off. */
    static volatile int checkoutSample;
    /** Blocks checked out, when some probe counts only returns of those; null otherwise. */
    private static volatile CheckoutTable checkouts;
    /**
     * Sampled checkouts being tracked, by every tracker (see {@link #tracked}): while 0, a return
     * needs no matching. Kept here, next to the table, so a return reads it from the line it
     * already reads, not through the sink, its tracker and an atomic.
     */
    private static volatile int trackedCheckouts;
    /** Every pool buffer out of its pool, with its take time; null when the profile has no pool. */
    private static volatile HeldBuffers heldBuffers;
    /**
     * While true, every buffer take is sampled (within {@code leak.rate}): some buffers are stuck,
     * and only a take whose site was captured can name the code that keeps them.
     */
    private static volatile boolean denseBufferSites;

    private static final VarHandle TRACKED_CHECKOUTS;

    static {
        try {
            TRACKED_CHECKOUTS =
                    MethodHandles.lookup().findStaticVarHandle(Checkouts.class, "trackedCheckouts", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Checkouts() {}

    /**
     * A checkout tracker started ({@code +1}) or ended ({@code -1}) the tracking of a checkout; called
     * before the checkout is published (start) and after it is removed (end), so a return of a
     * tracked block always sees a count above 0.
     */
    public static void tracked(int delta) {
        TRACKED_CHECKOUTS.getAndAdd(delta);
    }

    /** 1 in how many hits is tracked for hold time and leaks now; 0: none. */
    public static int checkoutSample() {
        return checkoutSample;
    }

    /**
     * Changes how many hits are tracked while the agent runs: the diagnostics build's switch turns
     * leak tracking off ({@code 0}) and back on to measure its cost. Checkouts already tracked end
     * at their return as usual.
     */
    public static void checkoutSample(int sample) {
        checkoutSample = Math.max(0, sample);
    }

    /** Checkouts tracked right now, by every tracker. */
    public static int trackedCheckouts() {
        return trackedCheckouts;
    }

    /**
     * Makes returns of probes that match checkouts count only blocks handed out by a hit (see
     * {@link #blockReturn}); {@code slots} bounds how many distinct blocks can be out at once, 0
     * turns matching off. Called once, before any probe is installed, only by profiles that need it.
     */
    public static void matchReturns(int slots) {
        checkouts = slots > 0 ? new CheckoutTable(slots) : null;
    }

    /**
     * Makes every buffer take and give-back update {@code held}; called once, before any probe is
     * installed, only by profiles with a pool.
     */
    public static void holdBuffers(HeldBuffers held) {
        heldBuffers = held;
    }

    /** Samples every buffer take for its site ({@code true}) or at {@code leak.sample} as any checkout. */
    public static void denseBufferSites(boolean dense) {
        denseBufferSites = dense;
    }

    /** Whether every buffer take is sampled for its site now. */
    public static boolean denseBufferSites() {
        return denseBufferSites;
    }

    /** The table of checked-out blocks, or null when no probe matches returns. */
    public static CheckoutTable checkouts() {
        return checkouts;
    }

    /**
     * A {@code getBlock} call of tier {@code tier} that returned {@code block} (null: a miss).
     * {@code counted} is false for lookups the cache itself leaves out of its statistics (a repeat
     * lookup right after caching a block): not a lookup, but a block it hands out is still a
     * checkout that must be returned. Every hit is a checkout.
     */
    public static void blockGet(int tier, boolean counted, Object block) {
        if (block == null) {
            blockMiss(tier, counted);
        } else {
            blockHit(tier, counted, true, block);
        }
    }

    /** A {@code getBlock} call of tier {@code tier} that found nothing. */
    public static void blockMiss(int tier, boolean counted) {
        if (counted) {
            CounterRows.add(Counters.missColumn(tier), 1L);
        }
    }

    /**
     * A {@code getBlock} call of tier {@code tier} that returned {@code block} (never null).
     * {@code checkout} false: the reader never gives the block back (the profile's {@code checkout}
     * condition), so it is a hit but neither an outstanding reference nor a leak candidate.
     */
    public static void blockHit(int tier, boolean counted, boolean checkout, Object block) {
        if (!checkout) {
            if (counted) {
                Counters.PLAIN_HITS[tier].increment();
            }
            return;
        }
        checkedOut(tier, counted, block, checkoutSample);
    }

    /**
     * A buffer taken from pool tier {@code tier} ({@code buffer} never null): held with its take time,
     * then counted and sampled as a checkout, every take while {@link #denseBufferSites} is on.
     */
    public static void bufferTake(int tier, boolean counted, Object buffer) {
        HeldBuffers held = heldBuffers;
        if (held != null) {
            held.taken(buffer, System.nanoTime(), Context.table());
        }
        int sample = checkoutSample;
        checkedOut(tier, counted, buffer, sample != 0 && denseBufferSites ? 1 : sample);
    }

    /** A buffer given back to pool tier {@code tier}: no longer held, then returned as a checkout. */
    public static void bufferReturn(int tier, boolean matched, Object buffer) {
        HeldBuffers held = heldBuffers;
        if (held != null && buffer != null) {
            held.given(buffer);
        }
        blockReturn(tier, matched, buffer);
    }

    /**
     * {@code holder} (a block a live scanner stands on) is still in use: its own checkout, if a cache
     * hit handed it out (a BucketCache block), and the pool buffers it lives in (a block read from
     * disk) restart their age, so a slow reader's block is not counted stuck (see {@link
     * CheckoutTable#touched}, {@link BufferHolders}).
     */
    public static void bufferTouch(Object holder) throws Throwable {
        if (holder == null) {
            return;
        }
        CheckoutTable table = checkouts;
        if (table != null) {
            table.touched(holder);
        }
        HeldBuffers held = heldBuffers;
        if (held != null) {
            BufferHolders.touch(holder, held, System.nanoTime());
        }
    }

    /** A checkout, sampled 1 in {@code sample} for its hold time and leaks (0: none). */
    private static void checkedOut(int tier, boolean counted, Object block, int sample) {
        CheckoutTable table = checkouts;
        if (table != null && !table.add(block, tier)) {
            // no room to match its return later: count it as a plain hit so outstanding stays true
            Counters.CHECKOUT_TABLE_FULL.increment();
            if (counted) {
                Counters.PLAIN_HITS[tier].increment();
            }
            return;
        }
        // one column or the other, then one inlined count: two calls would inline the count twice
        int column = counted ? Counters.hitColumn(tier) : Counters.uncountedCheckoutColumn(tier);
        if (CounterRows.incrementAndSample(column, sample)) {
            sampledCheckout(tier, block);
        }
    }

    @DontInline
    private static void sampledCheckout(int tier, Object block) {
        Bridge.sink.checkout(tier, block);
    }

    /** A block given back to tier {@code tier}'s cache (or released, for reference-counted blocks). */
    public static void blockReturn(int tier, Object block) {
        blockReturn(tier, false, block);
    }

    /**
     * A block given back to tier {@code tier}'s cache. With {@code matched} it counts only if
     * {@code block} is checked out (see {@link #matchReturns}), under the tier that handed it out;
     * otherwise it always counts, under {@code tier}.
     *
     * <p>While checkouts are tracked, every release goes to the sink, matched or not. A block object
     * can have several holders (HBase's BucketCache hands the same object to every reader while the
     * block waits in its RAM cache, and the reader that loaded it and the cache's writer release it
     * too): another holder's release can be matched to a checkout in the moment before that
     * checkout's tracking starts, and the checkout's own release, unmatched by then, must still end
     * it, or the collected block would be reported as leaked.
     */
    public static void blockReturn(int tier, boolean matched, Object block) {
        CheckoutTable table = checkouts;
        int returnedTier = tier;
        if (matched) {
            returnedTier = block == null || table == null ? -1 : table.remove(block);
        } else if (table != null && block != null) {
            table.remove(block);
        }
        if (returnedTier >= 0) {
            CounterRows.add(Counters.returnColumn(returnedTier), 1L);
        }
        if (block != null && trackedCheckouts != 0) {
            returnWhileTracking(returnedTier >= 0 ? returnedTier : tier, block);
        }
    }

    @DontInline
    private static void returnWhileTracking(int tier, Object block) {
        Bridge.sink.returned(tier, block);
    }
}
