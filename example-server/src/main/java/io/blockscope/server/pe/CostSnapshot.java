package io.blockscope.server.pe;

/**
 * Cumulative cost counters of the JVM that serves the reads: GC pauses and heap bytes allocated
 * (-1 when the target cannot tell), and block cache lookups.
 */
record CostSnapshot(long gcPauseCount, long gcPauseMillis, long allocatedBytes, long cacheRequests, long cacheMisses) {

    CostSnapshot minus(CostSnapshot earlier) {
        return new CostSnapshot(
                gcPauseCount - earlier.gcPauseCount,
                gcPauseMillis - earlier.gcPauseMillis,
                allocatedBytes < 0 || earlier.allocatedBytes < 0 ? -1 : allocatedBytes - earlier.allocatedBytes,
                cacheRequests - earlier.cacheRequests,
                cacheMisses - earlier.cacheMisses);
    }
}
