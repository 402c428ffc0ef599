package io.blockscope.agent.bootstrap;

/**
 * Receives the rare events the hot path hands over: sampled checkouts and copies, returns while
 * checkouts are tracked, and captured instances. The agent installs its implementation with
 * {@link Bridge#install}; until then (and after a failed start) {@link #NONE} drops everything.
 *
 * <p>An abstract class rather than an interface so the JIT sees one monomorphic call site.
 */
public abstract class Sink {

    /** Drops every event. */
    public static final Sink NONE = new Sink() {};

    /** A sampled {@code getBlock} hit: track {@code block} from now until it is returned. */
    public void checkout(int tier, Object block) {}

    /**
     * A return while tracked checkouts exist ({@link Checkouts#tracked} counts them): end the tracking
     * of {@code block} if it is one.
     */
    public void returned(int tier, Object block) {}

    /**
     * A sampled copy-to-heap of {@code bytes} bytes of component {@code component}, standing for
     * {@code calls} copies of {@code estimatedBytes} bytes in all (the inverse of its sampling
     * probability, so sums over samples estimate the true totals).
     */
    public void copy(int probe, int component, long bytes, long calls, long estimatedBytes) {}

    /**
     * A sampled heap allocation of a buffer allocator, {@code bytes} bytes for reason {@code reason}
     * (a {@code Counters.FALLBACK_*} index), standing for {@code calls} allocations of
     * {@code estimatedBytes} bytes in all (sampled like copies).
     */
    public void heapFallback(int probe, int reason, long bytes, long calls, long estimatedBytes) {}

    /** An instance a probe wants to read at scrape time (a cache, an allocator). */
    public void instance(int probe, Object instance) {}
}
