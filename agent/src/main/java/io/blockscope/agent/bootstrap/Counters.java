package io.blockscope.agent.bootstrap;

import java.util.Objects;
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

    /**
     * The first columns of every thread's row, reserved before any other: a hit, a return and a
     * miss count for each tier, side by side, so a lookup and its return write one or two cache
     * lines of the row (for the first tiers, the line the row's owner id and sampling countdown
     * are in). The hot path adds to these columns by number ({@link #hitColumn} and the like),
     * which the JIT folds to a constant; scrapes read them through the {@link Counter}s below.
     */
    private static final int TIER_COLUMNS = CounterRows.reserve(3 * MAX_TIERS);

    private static final int HIT = 0;
    private static final int RETURN = 1;
    private static final int MISS = 2;

    /** Hits the cache counts as lookups (its metrics flag set): {@code gets_total{result="hit"}}. */
    public static final Counter[] HITS = tierCounters(HIT);

    public static final Counter[] MISSES = tierCounters(MISS);
    public static final Counter[] RETURNS = tierCounters(RETURN);
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

    public static final Counter[] COPIES = counters(MAX_COMPONENTS);
    public static final Counter[] COPY_BYTES = counters(MAX_COMPONENTS);
    /** Copies the server makes by design, by {@code io.blockscope.agent.profile.DesignedCopy}. */
    public static final int MAX_DESIGNED = 4;

    public static final Counter[] DESIGNED_COPIES = counters(MAX_DESIGNED);
    public static final Counter[] DESIGNED_COPY_BYTES = counters(MAX_DESIGNED);
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

    /** The row column of {@link #HITS}{@code [tier]}. */
    static int hitColumn(int tier) {
        return tierColumn(tier, HIT);
    }

    /** The row column of {@link #UNCOUNTED_CHECKOUTS}{@code [tier]}. */
    static int uncountedCheckoutColumn(int tier) {
        return UNCOUNTED_CHECKOUTS[tier].column();
    }

    /** The row column of {@link #RETURNS}{@code [tier]}. */
    static int returnColumn(int tier) {
        return tierColumn(tier, RETURN);
    }

    /** The row column of {@link #MISSES}{@code [tier]}. */
    static int missColumn(int tier) {
        return tierColumn(tier, MISS);
    }

    /** A tier beyond the table fails here, as an array index would (a counted advice error). */
    private static int tierColumn(int tier, int kind) {
        return TIER_COLUMNS + 3 * Objects.checkIndex(tier, MAX_TIERS) + kind;
    }

    private static Counter[] tierCounters(int kind) {
        Counter[] counters = new Counter[MAX_TIERS];
        for (int tier = 0; tier < MAX_TIERS; tier++) {
            counters[tier] = new Counter(tierColumn(tier, kind));
        }
        return counters;
    }

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
