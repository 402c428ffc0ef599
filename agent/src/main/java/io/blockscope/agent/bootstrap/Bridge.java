package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import jdk.internal.vm.annotation.DontInline;

/**
 * The static entry points inlined advice calls. This class and {@link Counters} and {@link Sink}
 * are the only agent classes in the bootstrap class loader; they reference nothing but the JDK.
 *
 * <p>Every method is safe to call from any thread, allocates nothing and takes no lock unless the
 * call is sampled; the sampled share goes to the installed {@link Sink}. Counting is a plain store
 * into the thread's own row ({@link Counter}); checkouts are sampled by a countdown kept in that
 * row, copies by a {@link ThreadLocalRandom} draw (its state lives in the {@code Thread} object): no
 * contention, no thread-local map lookup.
 *
 * <p>Every call into the sink goes through a {@link DontInline} method: C2 counts a call site run a
 * hundred times as hot, so it would inline the whole sampled path (the sink, the tracker, a stack
 * capture) into each instrumented cache method, which then grows past what C2 inlines into its own
 * callers. Out of line, the advice adds a few dozen bytes of code to the host method. HotSpot honours
 * the annotation in classes of the bootstrap loader only, where this class is loaded.
 */
public final class Bridge {

    private static volatile Sink sink = Sink.NONE;
    /** 1 in {@code checkoutSample} hits is tracked for hold time and leaks; 0 turns tracking off. */
    private static volatile int checkoutSample;
    /** 1 in {@code copySample} copies is attributed to a call site; 0 turns attribution off. */
    private static volatile int copySample;
    /**
     * When positive (and {@code copySample} is 0): a copy of {@code b} bytes is attributed with
     * probability {@code b / copySampleBytes} (always when larger), so a site is sampled about once
     * per that many bytes it copies, however small its copies, and each sample stands for
     * {@code copySampleBytes} bytes: an unbiased estimate per site.
     */
    private static volatile long copySampleBytes;
    /**
     * Identity hashes of the last two instances each probe reported (slots 2p and 2p+1), so repeats
     * skip the sink even where two instances take turns (a pooled allocator and the shared heap one).
     */
    private static final int[] lastInstance = new int[Counters.MAX_PROBES * 2];
    /** Blocks checked out, when some probe counts only returns of those; null otherwise. */
    private static volatile CheckoutTable checkouts;
    /**
     * True while the probe switch pauses recording ({@code probe.switch=true} only): every entry
     * point returns at once, so a benchmark can alternate recording and not recording many times a
     * second without retransforming anything. A volatile read per call (a plain load on x86).
     */
    private static volatile boolean paused;
    /**
     * Sampled checkouts being tracked, by every tracker (see {@link #tracked}): while 0, a return
     * needs no matching. Kept here, next to the flags above, so a return reads it from the line it
     * already reads, not through the sink, its tracker and an atomic.
     */
    private static volatile int trackedCheckouts;

    private static final VarHandle TRACKED_CHECKOUTS;

    static {
        try {
            TRACKED_CHECKOUTS = MethodHandles.lookup().findStaticVarHandle(Bridge.class, "trackedCheckouts", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Bridge() {}

    /**
     * A checkout tracker started ({@code +1}) or ended ({@code -1}) the tracking of a checkout; called
     * before the checkout is published (start) and after it is removed (end), so a return of a
     * tracked block always sees a count above 0.
     */
    public static void tracked(int delta) {
        TRACKED_CHECKOUTS.getAndAdd(delta);
    }

    /** Checkouts tracked right now, by every tracker. */
    public static int trackedCheckouts() {
        return trackedCheckouts;
    }

    /** Pauses (true) or resumes recording by every probe; for the probe switch's measurements. */
    public static void pause(boolean pause) {
        paused = pause;
    }

    public static boolean paused() {
        return paused;
    }

    /** Installs the agent's sink and sampling rates; called once, before any probe is installed. */
    public static void install(Sink newSink, int newCheckoutSample, int newCopySample) {
        install(newSink, newCheckoutSample, newCopySample, 0);
    }

    /**
     * Installs the agent's sink and sampling: copies 1 in {@code newCopySample}, or when that is 0,
     * by bytes (one sample per {@code newCopySampleBytes} bytes copied on average; 0 turns it off).
     */
    public static void install(Sink newSink, int newCheckoutSample, int newCopySample, long newCopySampleBytes) {
        checkoutSample = Math.max(0, newCheckoutSample);
        copySample = Math.max(0, newCopySample);
        copySampleBytes = Math.max(0, newCopySampleBytes);
        sink = newSink;
    }

    /**
     * Makes returns of probes that match checkouts count only blocks handed out by a hit (see
     * {@link #blockReturn}); {@code slots} bounds how many distinct blocks can be out at once, 0
     * turns matching off. Called once, before any probe is installed, only by profiles that need it.
     */
    public static void matchReturns(int slots) {
        checkouts = slots > 0 ? new CheckoutTable(slots) : null;
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
        if (paused) {
            return;
        }
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
        if (paused) {
            return;
        }
        if (!checkout) {
            if (counted) {
                Counters.PLAIN_HITS[tier].increment();
            }
            return;
        }
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
        if (CounterRows.incrementAndSample(column, checkoutSample)) {
            sampledCheckout(tier, block);
        }
    }

    @DontInline
    private static void sampledCheckout(int tier, Object block) {
        sink.checkout(tier, block);
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
        if (paused) {
            return;
        }
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
        sink.returned(tier, block);
    }

    /** A copy of {@code bytes} bytes of component {@code component} onto the heap. */
    public static void copied(int probe, int component, long bytes) {
        if (paused) {
            return;
        }
        Counter.add(Counters.COPIES[component], 1, Counters.COPY_BYTES[component], bytes);
        int rate = copySample;
        if (rate > 0) {
            if (rate == 1 || ThreadLocalRandom.current().nextInt(rate) == 0) {
                sampledCopy(probe, component, bytes, rate, bytes * rate);
            }
            return;
        }
        long every = copySampleBytes;
        if (every > 0 && bytes > 0) {
            if (bytes >= every) {
                sampledCopy(probe, component, bytes, 1, bytes);
            } else if (ThreadLocalRandom.current().nextLong(every) < bytes) {
                // sampled with probability bytes/every: stands for every/bytes calls and every bytes
                sampledCopy(probe, component, bytes, (every + bytes / 2) / bytes, every);
            }
        }
    }

    @DontInline
    private static void sampledCopy(int probe, int component, long bytes, long calls, long estimatedBytes) {
        sink.copy(probe, component, bytes, calls, estimatedBytes);
    }

    /** In the call slot: the receiver's class of the innermost call a receiver probe watches ... */
    public static final int RECEIVER = 0;
    /** ... and that call's method name. */
    public static final int RECEIVER_METHOD = 1;
    /** The receiver's class of the innermost copy door that names its receiver (a comparator). */
    public static final int DOOR_RECEIVER = 2;
    /** The component (an {@code Integer}) of the outermost copy door in progress; null outside doors. */
    public static final int DOOR_COMPONENT = 3;

    static final int CALL_SLOT_LENGTH = 4;

    /**
     * A door's component at or above this is a copy by design, of operation {@code component -
     * DESIGNED_DOOR} (kept below 128, so the boxed value is one of {@code Integer}'s cached ones).
     */
    public static final int DESIGNED_DOOR = 100;

    /**
     * This thread's call slot: what the watched calls in progress on this thread are ({@link
     * #RECEIVER} to {@link #DOOR_COMPONENT}). Advice saves what it overwrites in locals on entry and
     * puts it back on exit, so nested calls unwind. The slot sits in the thread's counter row (no
     * {@code ThreadLocal} lookup per call), allocated with the row on the thread's first use; nothing
     * after.
     */
    public static Object[] callSlot() {
        return CounterRows.callSlot();
    }

    /** The receiver's class of the innermost watched call, when that call is {@code method}; else null. */
    public static Class<?> receiver(String method) {
        Object[] slot = CounterRows.callSlot();
        return method.equals(slot[RECEIVER_METHOD]) ? (Class<?>) slot[RECEIVER] : null;
    }

    /**
     * Bytes moved onto the heap by a primitive that copies for cells and for everything else alike
     * (HBase's {@code ByteBufferUtils.copyFromBufferToArray}): a cell copy only inside a copy door,
     * counted once under the outermost door's component however deep the door's helpers nest, or,
     * inside a door by design, under its operation (never sampled to a site: the operation names
     * it); a copy outside every door (an RPC stream, a block header) is not a cell copy.
     */
    public static void copiedInDoor(int probe, long bytes) {
        if (paused) {
            return;
        }
        Object door = CounterRows.callSlot()[DOOR_COMPONENT];
        if (door != null) {
            int component = (Integer) door;
            if (component < DESIGNED_DOOR) {
                copied(probe, component, bytes);
            } else {
                int operation = component - DESIGNED_DOOR;
                Counter.add(Counters.DESIGNED_COPIES[operation], 1, Counters.DESIGNED_COPY_BYTES[operation], bytes);
            }
        }
    }

    /** An instance seen by probe {@code probe}; repeats of the last one cost an identity hash. */
    public static void instance(int probe, Object instance) {
        if (instance == null || paused) {
            return;
        }
        int hash = System.identityHashCode(instance);
        int slot = probe * 2;
        if (lastInstance[slot] != hash && lastInstance[slot + 1] != hash) {
            lastInstance[slot + 1] = lastInstance[slot];
            lastInstance[slot] = hash;
            newInstance(probe, instance);
        }
    }

    @DontInline
    private static void newInstance(int probe, Object instance) {
        sink.instance(probe, instance);
    }

    /**
     * A buffer allocator ({@code allocator}, remembered for scrape-time reads) served {@code bytes}
     * bytes from the heap. Why: a non-pooling allocator ({@code pooled} false) has no pool; a pooling
     * one sends requests below its minimal pooled size to the heap by design (a zero-byte request is
     * one of those); anything else it would have pooled, so its pool had no buffer left. Attributed
     * to a call site like copies, at the same sampling.
     */
    public static void heapFallback(int probe, long bytes, boolean pooled, long minPooledSize, Object allocator) {
        if (paused) {
            return;
        }
        int reason = !pooled
                ? Counters.FALLBACK_POOL_DISABLED
                : bytes == 0 || bytes < minPooledSize
                        ? Counters.FALLBACK_BELOW_MIN_SIZE
                        : Counters.FALLBACK_POOL_EXHAUSTED;
        Counter.add(Counters.HEAP_FALLBACKS[reason], 1, Counters.HEAP_FALLBACK_BYTES[reason], bytes);
        instance(probe, allocator);
        int rate = copySample;
        if (rate > 0) {
            if (rate == 1 || ThreadLocalRandom.current().nextInt(rate) == 0) {
                sampledFallback(probe, reason, bytes, rate, bytes * rate);
            }
            return;
        }
        long every = copySampleBytes;
        if (every > 0 && bytes > 0) {
            if (bytes >= every) {
                sampledFallback(probe, reason, bytes, 1, bytes);
            } else if (ThreadLocalRandom.current().nextLong(every) < bytes) {
                sampledFallback(probe, reason, bytes, (every + bytes / 2) / bytes, every);
            }
        }
    }

    @DontInline
    private static void sampledFallback(int probe, int reason, long bytes, long calls, long estimatedBytes) {
        sink.heapFallback(probe, reason, bytes, calls, estimatedBytes);
    }

    /**
     * Called by the exception handler of every advice: counts the suppressed throwable against its
     * probe. It must never throw, or the host would see the advice's failure.
     */
    public static void adviceError(Throwable error, int probe) {
        try {
            Counters.ADVICE_ERRORS[probe].increment();
            LAST_ERRORS[probe] = error;
        } catch (Throwable ignored) {
            // nothing sensible left to do; the host must go on
        }
    }

    /** The last throwable each probe's advice suppressed, for the agent's one-time log line. */
    public static final Throwable[] LAST_ERRORS = new Throwable[Counters.MAX_PROBES];
}
