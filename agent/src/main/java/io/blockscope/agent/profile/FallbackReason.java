package io.blockscope.agent.profile;

import io.blockscope.agent.bootstrap.Counters;

/**
 * Why a buffer allocator served an allocation from the heap. A fixed set, and the label set of the
 * heap-fallback metrics; each index is the bridge's {@code Counters.FALLBACK_*} constant.
 */
public enum FallbackReason {
    /** Below the smallest size the pool serves (HBase: {@code hbase.server.allocator.minimal.allocate.size}). */
    BELOW_MIN_SIZE("below_min_size", Counters.FALLBACK_BELOW_MIN_SIZE),
    /** The pool had no free buffer and had created as many as it may. */
    POOL_EXHAUSTED("pool_exhausted", Counters.FALLBACK_POOL_EXHAUSTED),
    /** The allocator pools nothing (HBase: its shared {@code HEAP} allocator, or the pool turned off). */
    POOL_DISABLED("pool_disabled", Counters.FALLBACK_POOL_DISABLED);

    private final String label;
    private final int index;

    FallbackReason(String label, int index) {
        this.label = label;
        this.index = index;
    }

    public String label() {
        return label;
    }

    /** The bridge's counter index. */
    public int index() {
        return index;
    }
}
