package io.blockscope.server.pe;

import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.PerformanceEvaluation.Slice;
import io.blockscope.server.pe.TickMeter.Counters;
import io.blockscope.server.pe.TickMeter.Tick;
import org.HdrHistogram.Histogram;

/**
 * The deploy comparison's {@link Figures}: rates per second of a stretch (one tick, or a loading's
 * ticks summed), rounded as the JSON keeps them, with the process's memory read at the end.
 */
final class DeployFigures {

    private DeployFigures() {}

    /** The figures of a stretch of {@code nanos}: rates per second of it, memory read now. */
    static Figures figures(
            double t,
            long nanos,
            long ops,
            Histogram latencies,
            long gcCount,
            double gcSeconds,
            long allocatedBytes,
            long cpuNanos,
            long cacheRequests,
            long cacheMisses,
            Counters counters) {
        double seconds = nanos / 1e9;
        double per = seconds > 0 ? 1 / seconds : 0;
        return new Figures(
                round(t, 3),
                round(seconds, 3),
                ops,
                round(ops * per, 1),
                latencies.getTotalCount() == 0 ? 0 : round(latencies.getMean() / 1000.0, 1),
                micros(latencies, 50),
                micros(latencies, 95),
                micros(latencies, 99),
                micros(latencies, 99.9),
                latencies.getTotalCount() == 0 ? 0 : latencies.getMaxValue() / 1000.0,
                gcCount,
                round(gcSeconds, 6),
                round(gcSeconds * per, 6),
                allocatedBytes < 0 ? null : round(allocatedBytes * per, 0),
                cpuNanos < 0 ? null : round(cpuNanos / 1e9 * per, 4),
                cacheRequests == 0 ? null : round(1 - (double) cacheMisses / cacheRequests, 5),
                counters.dataRequests() == 0
                        ? null
                        : round(1 - (double) counters.dataFileReads() / counters.dataRequests(), 5),
                round(counters.dataFileReads() * per, 1),
                counters.evictedBlocks(),
                round(counters.evictedBlocks() * per, 2),
                ProcessMemory.heapAfterGc(),
                ProcessMemory.rss(),
                ProcessMemory.direct(),
                null,
                null);
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }

    /** A loading's ticks summed, and its workers' errors. */
    static final class Totals {
        final Histogram latencies = StepMeasurement.newHistogram();
        long nanos;
        long ops;
        long gcCount;
        double gcSeconds;
        long allocated;
        long cpu;
        long requests;
        long misses;
        Counters counters = new Counters(0, 0, 0);
        long errors;
        String firstError;

        void add(Tick tick) {
            Slice s = tick.slice();
            latencies.add(s.latencies);
            nanos += s.elapsedNanos;
            ops += s.ops;
            gcCount += tick.gc().count();
            gcSeconds += tick.gc().seconds();
            allocated = allocated < 0 || tick.allocatedBytes() < 0 ? -1 : allocated + tick.allocatedBytes();
            cpu = cpu < 0 || s.processCpuNanos < 0 ? -1 : cpu + s.processCpuNanos;
            requests += s.cost.cacheRequests();
            misses += s.cost.cacheMisses();
            counters = counters.plus(tick.counters());
        }

        void errors(Slice s) {
            errors += s.errors;
            if (firstError == null) {
                firstError = s.firstError;
            }
        }

        Figures figures(double t) {
            return DeployFigures.figures(
                    t, nanos, ops, latencies, gcCount, gcSeconds, allocated, cpu, requests, misses, counters);
        }
    }
}
