package io.blockscope.server.pe;

import io.blockscope.server.jvm.GcPauses;

/**
 * Cumulative cost counters of the JVM that serves the reads: GC pauses per collector, heap bytes
 * allocated ({@code -1} when the target cannot tell), and block cache lookups.
 */
record CostSnapshot(GcPauses.Reading gc, long allocatedBytes, long cacheRequests, long cacheMisses) {

    CostSnapshot minus(CostSnapshot earlier) {
        return new CostSnapshot(
                gc.minus(earlier.gc),
                allocatedBytes < 0 || earlier.allocatedBytes < 0 ? -1 : allocatedBytes - earlier.allocatedBytes,
                cacheRequests - earlier.cacheRequests,
                cacheMisses - earlier.cacheMisses);
    }
}
