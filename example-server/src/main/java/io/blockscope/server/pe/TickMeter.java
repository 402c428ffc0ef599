package io.blockscope.server.pe;

import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.jvm.ThreadAllocation;
import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.PerformanceEvaluation.Slice;
import org.HdrHistogram.Histogram;

/**
 * Reads, tick after tick of one loading, what each tick cost besides its operations: GC pauses,
 * read in a chain so that every pause counts in exactly one tick; the target's cache and store file
 * counters; and the heap allocated by every thread of the JVM.
 */
final class TickMeter {

    private final InProcessTarget target;
    private final ThreadAllocation allocation;
    private GcPauses.Reading gc;
    private Counters counters;
    private long others;

    /** Starts the chain now, settled: whatever ran before (a warm-up) has all its pauses counted. */
    TickMeter(InProcessTarget target, ThreadAllocation allocation) {
        this.target = target;
        this.allocation = allocation;
        this.gc = GcPauses.shared().read(true);
        this.counters = Counters.of(target);
        this.others = allocation.allThreads();
    }

    /**
     * What the tick that ran {@code slice} cost since the previous reading.
     *
     * @param settle wait for pauses still being reported: at a loading's last tick, and before a
     *     full collection, so that the tick holds all of its own pauses
     */
    Tick read(Slice slice, boolean settle) {
        GcPauses.Reading gcNow = GcPauses.shared().read(settle);
        Counters countersNow = Counters.of(target);
        long othersNow = allocation.allThreads();
        // workers start after and end before the all-threads readings: add their own counts
        long allocated = slice.workerAllocatedBytes < 0 || others < 0 || othersNow < 0
                ? -1
                : slice.workerAllocatedBytes + (othersNow - others);
        Tick tick = new Tick(slice, gcNow.minus(gc), countersNow.minus(counters), allocated);
        gc = gcNow;
        counters = countersNow;
        others = othersNow;
        return tick;
    }

    /** After a full collection between ticks: its pause and allocation belong to no tick. */
    void skipCollection() {
        gc = GcPauses.shared().read(true);
        others = allocation.allThreads();
    }

    /** The target's cumulative cache and store file counters. */
    record Counters(long evictedBlocks, long dataRequests, long dataFileReads) {
        static Counters of(InProcessTarget target) {
            return new Counters(target.evictedBlocks(), target.dataRequests(), target.dataFileReads());
        }

        Counters minus(Counters earlier) {
            return new Counters(
                    evictedBlocks - earlier.evictedBlocks,
                    dataRequests - earlier.dataRequests,
                    dataFileReads - earlier.dataFileReads);
        }

        Counters plus(Counters other) {
            return new Counters(
                    evictedBlocks + other.evictedBlocks,
                    dataRequests + other.dataRequests,
                    dataFileReads + other.dataFileReads);
        }
    }

    /** What one tick measured. */
    record Tick(Slice slice, GcPauses.Reading gc, Counters counters, long allocatedBytes) {
        Figures figures(double t, Histogram latencies) {
            return DeployFigures.figures(
                    t,
                    slice.elapsedNanos,
                    slice.ops,
                    latencies,
                    gc.count(),
                    gc.seconds(),
                    allocatedBytes,
                    slice.processCpuNanos,
                    slice.cost.cacheRequests(),
                    slice.cost.cacheMisses(),
                    counters);
        }
    }
}
