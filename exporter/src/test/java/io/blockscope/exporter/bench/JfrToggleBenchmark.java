package io.blockscope.exporter.bench;

import io.blockscope.exporter.gc.GcMonitoring;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The JFR collector's cost to an allocation-heavy thread, A/B interleaved in one JVM: short slices
 * of {@link AllocationWorkload}'s operation alternate between "collector running" and "collector
 * closed", many times, in alternating order. Same process, same JIT state, and neighbours' load
 * lands on both sides alike; the figure is the median of the per-pair ratios.
 *
 * <p>Each slice reports operations per CPU second of the workload thread (the in-thread cost:
 * allocation sampling, GC event emission inside pauses) and per CPU second of the whole process
 * (adds JFR's recorder and our stream thread, and GC). Usage: {@code JfrToggleBenchmark [PAIRS
 * [SLICE_MS]]}, defaults 20 and 4000. The collector starts {@value #SETTLE_MS} ms before its
 * slice, so that its one-time start-up work (measured by the start-up line) stays out of it.
 */
public final class JfrToggleBenchmark {

    /** Time for a fresh recording's start-up work (metadata, first chunk, first flush) to finish. */
    private static final long SETTLE_MS = 1500;

    private JfrToggleBenchmark() {}

    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long sliceNanos = (args.length > 1 ? Long.parseLong(args[1]) : 4000) * 1_000_000L;
        PrometheusProperties properties = PrometheusProperties.builder().build();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        // Warm-up: JIT the workload, and load JFR's classes once (a one-time cost, not per slice).
        slice(5_000_000_000L, threads, os);
        GcMonitoring.start(new PrometheusRegistry(), properties, true).close();
        long startCpu = os.getProcessCpuTime();
        long startWall = System.nanoTime();
        GcMonitoring.start(new PrometheusRegistry(), properties, true).close();
        System.out.printf(
                "start-up + close of the JFR collector (warm): %.0f ms wall, %.0f ms process CPU%n",
                (System.nanoTime() - startWall) / 1e6, (os.getProcessCpuTime() - startCpu) / 1e6);

        List<Double> threadRatios = new ArrayList<>();
        List<Double> processRatios = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            double[] off;
            double[] on;
            if (i % 2 == 0) {
                off = slice(sliceNanos, threads, os);
                on = withCollector(properties, sliceNanos, threads, os);
            } else {
                on = withCollector(properties, sliceNanos, threads, os);
                off = slice(sliceNanos, threads, os);
            }
            threadRatios.add(on[0] / off[0]);
            processRatios.add(on[1] / off[1]);
            System.out.printf(
                    "pair %2d: off %.0f/thread-cpu-s %.0f/process-cpu-s, on %.0f/thread-cpu-s %.0f/process-cpu-s%n",
                    i + 1, off[0], off[1], on[0], on[1]);
        }
        System.out.printf(
                "JFR collector on/off, median of %d paired ratios: workload thread %.4f (%+.2f%%), whole process %.4f (%+.2f%%)%n",
                pairs,
                median(threadRatios),
                100 * (median(threadRatios) - 1),
                median(processRatios),
                100 * (median(processRatios) - 1));
        System.out.printf(
                "  quartiles, workload thread: %.4f .. %.4f; whole process: %.4f .. %.4f%n",
                quantile(threadRatios, 0.25),
                quantile(threadRatios, 0.75),
                quantile(processRatios, 0.25),
                quantile(processRatios, 0.75));
    }

    private static double[] withCollector(
            PrometheusProperties properties,
            long sliceNanos,
            ThreadMXBean threads,
            com.sun.management.OperatingSystemMXBean os)
            throws InterruptedException {
        try (GcMonitoring gc = GcMonitoring.start(new PrometheusRegistry(), properties, true)) {
            if (gc.source() != GcMonitoring.Source.JFR) {
                throw new IllegalStateException("JFR did not start");
            }
            Thread.sleep(SETTLE_MS); // the recording's start-up work is not the steady cost being measured
            return slice(sliceNanos, threads, os);
        }
    }

    /** {ops per workload-thread CPU second, ops per process CPU second} for one slice. */
    private static double[] slice(long nanos, ThreadMXBean threads, com.sun.management.OperatingSystemMXBean os) {
        long thread0 = threads.getCurrentThreadCpuTime();
        long process0 = os.getProcessCpuTime();
        long deadline = System.nanoTime() + nanos;
        long ops = 0;
        long acc = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1000; i++) {
                acc += AllocationWorkload.operation(ops + i);
            }
            ops += 1000;
        }
        AllocationWorkload.sink = acc;
        double threadSeconds = (threads.getCurrentThreadCpuTime() - thread0) / 1e9;
        double processSeconds = (os.getProcessCpuTime() - process0) / 1e9;
        return new double[] {ops / threadSeconds, ops / processSeconds};
    }

    private static double median(List<Double> values) {
        return quantile(values, 0.5);
    }

    private static double quantile(List<Double> values, double q) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double index = q * (sorted.length - 1);
        int low = (int) Math.floor(index);
        int high = (int) Math.ceil(index);
        return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
    }
}
