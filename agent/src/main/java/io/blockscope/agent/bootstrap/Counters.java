package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters the probes bump on every call ({@link Counter}: one row per thread, a plain store per
 * increment). They live in the bootstrap class loader next
 * to {@link Bridge} so inlined advice in any class loader reaches them with one static field read;
 * the agent's collectors sum them at scrape time.
 *
 * <p>Index spaces are small and fixed: tiers and probes are numbered by the agent when it reads the
 * profile, components by {@code io.blockscope.agent.profile.Component}. An index beyond a table is a
 * bug in the agent, never in the host, and surfaces as a counted advice error.
 */
public final class Counters {

    public static final int MAX_TIERS = 8;
    public static final int MAX_COMPONENTS = 8;
    public static final int MAX_PROBES = 64;

    /** Hits the cache counts as lookups (its metrics flag set): {@code gets_total{result="hit"}}. */
    public static final Counter[] HITS = counters(MAX_TIERS);
    /**
     * Blocks handed out by lookups the cache leaves out of its statistics. Checkouts, which
     * {@link #RETURNS} must catch up with, are these plus {@link #HITS}: kept apart so that the
     * common, counted hit costs one increment, not two.
     */
    public static final Counter[] UNCOUNTED_CHECKOUTS = counters(MAX_TIERS);
    /**
     * Counted hits that are not checkouts: the profile says the block is not given back (a heap
     * block of an on-heap cache), or the checkout table had no room for it. In
     * {@code gets_total{result="hit"}}, not in outstanding references.
     */
    public static final Counter[] PLAIN_HITS = counters(MAX_TIERS);
    /** Checkouts left untracked because the {@link CheckoutTable} window was full (all tiers). */
    public static final Counter CHECKOUT_TABLE_FULL = new Counter();

    public static final Counter[] MISSES = counters(MAX_TIERS);
    public static final Counter[] RETURNS = counters(MAX_TIERS);
    public static final Counter[] COPIES = counters(MAX_COMPONENTS);
    public static final Counter[] COPY_BYTES = counters(MAX_COMPONENTS);
    /** Rare (an advice that threw): a plain {@link LongAdder}, no row column per probe. */
    public static final LongAdder[] ADVICE_ERRORS = adders(MAX_PROBES);

    /**
     * Why a pooling allocator served an allocation from the heap; the index of
     * {@link #HEAP_FALLBACKS}. The labels are {@code io.blockscope.agent.profile.FallbackReason}'s.
     */
    public static final int FALLBACK_BELOW_MIN_SIZE = 0;

    public static final int FALLBACK_POOL_EXHAUSTED = 1;
    public static final int FALLBACK_POOL_DISABLED = 2;
    public static final int FALLBACK_REASONS = 3;
    /** Heap allocations of buffer allocators, by reason; {@link #HEAP_FALLBACK_BYTES} their bytes. */
    public static final Counter[] HEAP_FALLBACKS = counters(FALLBACK_REASONS);

    public static final Counter[] HEAP_FALLBACK_BYTES = counters(FALLBACK_REASONS);

    private Counters() {}

    private static Counter[] counters(int n) {
        Counter[] counters = new Counter[n];
        for (int i = 0; i < n; i++) {
            counters[i] = new Counter();
        }
        return counters;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
