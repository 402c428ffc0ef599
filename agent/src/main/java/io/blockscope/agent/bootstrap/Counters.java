package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.LongAdder;

/**
 * The striped counters the probes bump on every call. They live in the bootstrap class loader next
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
    public static final LongAdder[] HITS = adders(MAX_TIERS);
    /**
     * Blocks handed out by lookups the cache leaves out of its statistics. Checkouts, which
     * {@link #RETURNS} must catch up with, are these plus {@link #HITS}: kept apart so that the
     * common, counted hit costs one increment, not two.
     */
    public static final LongAdder[] UNCOUNTED_CHECKOUTS = adders(MAX_TIERS);
    /**
     * Counted hits that are not checkouts: the profile says the block is not given back (a heap
     * block of an on-heap cache), or the checkout table had no room for it. In
     * {@code gets_total{result="hit"}}, not in outstanding references.
     */
    public static final LongAdder[] PLAIN_HITS = adders(MAX_TIERS);
    /** Checkouts left untracked because the {@link CheckoutTable} window was full (all tiers). */
    public static final LongAdder CHECKOUT_TABLE_FULL = new LongAdder();

    public static final LongAdder[] MISSES = adders(MAX_TIERS);
    public static final LongAdder[] RETURNS = adders(MAX_TIERS);
    public static final LongAdder[] COPIES = adders(MAX_COMPONENTS);
    public static final LongAdder[] COPY_BYTES = adders(MAX_COMPONENTS);
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
    public static final LongAdder[] HEAP_FALLBACKS = adders(FALLBACK_REASONS);

    public static final LongAdder[] HEAP_FALLBACK_BYTES = adders(FALLBACK_REASONS);

    private Counters() {}

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
