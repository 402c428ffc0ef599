package io.blockscope.exporter.bench;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.gc.GcMonitoring;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An allocation-heavy single-threaded workload (short-lived arrays, strings, lists and maps: a
 * young collection every few hundred milliseconds) measured in a JVM with the exporter's JFR
 * collector on, off (MXBean source), or with no exporter at all.
 *
 * <p>Usage: {@code AllocationWorkload jfr|mxbean|none WARMUP_S MEASURE_S}; prints {@code ops_per_s
 * N ops_per_cpu_s M}: operations per wall-clock second, and per second of CPU time used by the
 * whole process (workload, GC, JIT, JFR and exporter threads). The second is the cost measure that
 * survives a shared, overloaded machine, where wall-clock throughput mostly measures the neighbours.
 */
public final class AllocationWorkload {

    static volatile long sink;

    private AllocationWorkload() {}

    public static void main(String[] args) throws Exception {
        String variant = args[0];
        long warmupNanos = Long.parseLong(args[1]) * 1_000_000_000L;
        long measureNanos = Long.parseLong(args[2]) * 1_000_000_000L;
        Exporter exporter = null;
        if (!variant.equals("none")) {
            exporter = Exporter.start(ExporterConfig.builder()
                    .host("127.0.0.1")
                    .port(0)
                    .gcSource(variant.equals("jfr") ? GcMonitoring.Source.JFR : GcMonitoring.Source.MXBEAN)
                    .build());
        }
        run(warmupNanos);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = os.getProcessCpuTime();
        long mainStart = threads.getCurrentThreadCpuTime();
        long jfrStart = jfrThreadsCpu(threads);
        long start = System.nanoTime();
        long ops = run(measureNanos);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
        double mainSeconds = (threads.getCurrentThreadCpuTime() - mainStart) / 1e9;
        double jfrSeconds = (jfrThreadsCpu(threads) - jfrStart) / 1e9;
        System.out.printf(
                "ops_per_s %.1f ops_per_cpu_s %.1f ops_per_main_cpu_s %.1f jfr_threads_cpu_share %.5f%n",
                ops / seconds, ops / cpuSeconds, ops / mainSeconds, jfrSeconds / cpuSeconds);
        if (exporter != null) {
            exporter.close();
        }
    }

    /** CPU time of JFR's Java threads (recorder, periodic tasks) and the exporter's stream thread. */
    private static long jfrThreadsCpu(ThreadMXBean threads) {
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null
                    && (info.getThreadName().startsWith("JFR")
                            || info.getThreadName().equals("blockscope-jfr-gc"))) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    private static long run(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long ops = 0;
        long acc = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1000; i++) {
                acc += operation(ops + i);
            }
            ops += 1000;
        }
        sink = acc;
        return ops;
    }

    /** About 1.5 KB of short-lived objects of mixed shapes. */
    static long operation(long seed) {
        byte[] buffer = new byte[64 + (int) (seed & 511)];
        buffer[0] = (byte) seed;
        List<String> keys = new ArrayList<>(8);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < 8; i++) {
            String key = Long.toString(seed + i, 36);
            keys.add(key);
            index.put(key, i);
        }
        return buffer.length + keys.get((int) (seed & 7)).length() + index.size();
    }
}
