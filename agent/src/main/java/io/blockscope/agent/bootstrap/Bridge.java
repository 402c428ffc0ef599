package io.blockscope.agent.bootstrap;

import jdk.internal.vm.annotation.DontInline;

/**
 * Installs what the entry points inlined advice calls report to: the agent's {@link Sink} and the
 * sampling. The entry points are split by job: {@link Checkouts} (lookups, checkouts, returns),
 * {@link Copies} (copies, copy doors, call slot), {@link Instances} (captured instances, heap
 * fallbacks) and {@link AdviceErrors}. These and the counters are the agent classes in the
 * bootstrap class loader; they reference nothing but the JDK.
 *
 * <p>Every entry point is safe to call from any thread, allocates nothing and takes no lock unless
 * the call is sampled; the sampled share goes to the installed sink. Counting is a plain store into
 * the thread's own row ({@link Counter}); checkouts are sampled by a countdown kept in that row,
 * copies and fallbacks by a {@link ByteSampler}: no contention, no thread-local map lookup.
 *
 * <p>Every call into the sink goes through a {@link DontInline} method: C2 counts a call site run a
 * hundred times as hot, so it would inline the whole sampled path (the sink, the tracker, a stack
 * capture) into each instrumented cache method, which then grows past what C2 inlines into its own
 * callers. Out of line, the advice adds a few dozen bytes of code to the host method. HotSpot honours
 * the annotation in classes of the bootstrap loader only, where these classes are loaded.
 */
public final class Bridge {

    static volatile Sink sink = Sink.NONE;
    /** Which copies and heap fallbacks are attributed to a call site. */
    static volatile ByteSampler copySampler = ByteSampler.OFF;

    private Bridge() {}

    /** Installs the agent's sink and sampling rates; called once, before any probe is installed. */
    public static void install(Sink newSink, int newCheckoutSample, int newCopySample) {
        install(newSink, newCheckoutSample, newCopySample, 0);
    }

    /**
     * Installs the agent's sink and sampling: checkouts 1 in {@code newCheckoutSample} (0: none);
     * copies 1 in {@code newCopySample}, or when that is 0, by bytes (one sample per {@code
     * newCopySampleBytes} bytes copied on average; 0 turns it off).
     */
    public static void install(Sink newSink, int newCheckoutSample, int newCopySample, long newCopySampleBytes) {
        Checkouts.checkoutSample = Math.max(0, newCheckoutSample);
        copySampler = ByteSampler.of(newCopySample, newCopySampleBytes);
        sink = newSink;
    }
}
