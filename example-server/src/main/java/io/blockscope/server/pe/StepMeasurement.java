package io.blockscope.server.pe;

import io.blockscope.server.jvm.GcPauses;
import org.HdrHistogram.Histogram;

/**
 * What one (workload, configuration, thread count) step measured, summed over its interleaved
 * slices. Latencies are recorded in nanoseconds at microsecond resolution.
 */
final class StepMeasurement {

    static Histogram newHistogram() {
        Histogram h = new Histogram(1_000L, 3_600_000_000_000L, 3);
        return h;
    }

    final Workload workload;
    final ReadTarget target;
    final int threads;
    final Histogram latencies = newHistogram();
    long ops;
    long rowsRead;
    long rowsReturned;
    long elapsedNanos;
    /** Pauses per collector over the step's slices; null until the first slice. */
    GcPauses.Reading gc;

    long allocatedBytes;
    boolean allocationKnown = true;
    long cacheRequests;
    long processCpuNanos;
    long cacheMisses;
    int slices;
    long errors;
    String firstError;

    StepMeasurement(Workload workload, ReadTarget target, int threads) {
        this.workload = workload;
        this.target = target;
        this.threads = threads;
    }

    void addSlice(
            long ops,
            long rowsRead,
            long rowsReturned,
            long elapsedNanos,
            Histogram sliceLatencies,
            CostSnapshot cost,
            long workerAllocatedBytes) {
        this.ops += ops;
        this.rowsRead += rowsRead;
        this.rowsReturned += rowsReturned;
        this.elapsedNanos += elapsedNanos;
        this.latencies.add(sliceLatencies);
        this.gc = gc == null ? cost.gc() : gc.plus(cost.gc());
        long allocated = target.countsWorkerAllocation() ? workerAllocatedBytes : cost.allocatedBytes();
        if (allocated < 0) {
            allocationKnown = false;
        } else {
            this.allocatedBytes += allocated;
        }
        this.cacheRequests += cost.cacheRequests();
        this.cacheMisses += cost.cacheMisses();
        this.slices++;
    }

    /** CPU time of the whole process during a slice, or -1 when unknown (the step's becomes unknown). */
    void addProcessCpu(long nanos) {
        processCpuNanos = processCpuNanos < 0 || nanos < 0 ? -1 : processCpuNanos + nanos;
    }

    /** Process CPU nanoseconds per operation (all threads: reads, GC, JIT, an agent), or NaN. */
    double processCpuNanosPerOp() {
        return processCpuNanos < 0 || ops == 0 ? Double.NaN : (double) processCpuNanos / ops;
    }

    void addErrors(long count, String first) {
        errors += count;
        if (firstError == null) {
            firstError = first;
        }
    }

    double seconds() {
        return elapsedNanos / 1e9;
    }

    double opsPerSec() {
        return elapsedNanos == 0 ? 0 : ops / seconds();
    }

    double rowsPerSec() {
        return elapsedNanos == 0 ? 0 : rowsRead / seconds();
    }

    double returnedRowsPerSec() {
        return elapsedNanos == 0 ? 0 : rowsReturned / seconds();
    }

    double micros(double percentile) {
        return latencies.getTotalCount() == 0 ? 0 : latencies.getValueAtPercentile(percentile) / 1000.0;
    }

    double meanMicros() {
        return latencies.getTotalCount() == 0 ? 0 : latencies.getMean() / 1000.0;
    }

    double maxMicros() {
        return latencies.getTotalCount() == 0 ? 0 : latencies.getMaxValue() / 1000.0;
    }

    long gcPauseCount() {
        return gc == null ? 0 : gc.count();
    }

    double gcPauseSeconds() {
        return gc == null ? 0 : gc.seconds();
    }

    /** Seconds of GC pause per second of the step. */
    double gcPauseSecondsPerSecond() {
        return elapsedNanos == 0 ? 0 : gcPauseSeconds() / seconds();
    }

    /** {@code jfr}, {@code mxbean-fallback} or {@code none}: where the pause figures come from. */
    String gcSource() {
        return gc == null ? "none" : gc.source();
    }

    /** Heap bytes allocated per operation, or NaN when the target could not count them. */
    double allocBytesPerOp() {
        return !allocationKnown || ops == 0 ? Double.NaN : (double) allocatedBytes / ops;
    }

    /** Heap bytes allocated per row read, or NaN. */
    double allocBytesPerRow() {
        return !allocationKnown || rowsRead == 0 ? Double.NaN : (double) allocatedBytes / rowsRead;
    }

    double cacheHitRatio() {
        return cacheRequests == 0 ? Double.NaN : 1 - (double) cacheMisses / cacheRequests;
    }
}
