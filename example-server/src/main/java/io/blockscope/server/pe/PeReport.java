package io.blockscope.server.pe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PE's outputs: the table on stdout, the JSON records and the comparison ratios. The first
 * configuration of a run is the baseline every other one is compared with (so
 * {@code --read-path copy,zero-copy} reports zero-copy's gain over copy).
 */
final class PeReport {

    private static final String HEADER = String.format(
            "%-10s %-24s %4s %10s %12s %9s %9s %9s %5s %7s %12s %11s %7s %7s %7s",
            "workload",
            "configuration",
            "thr",
            "ops/s",
            "rows/s",
            "p50 us",
            "p99 us",
            "p99.9 us",
            "gc#",
            "gc ms/s",
            "alloc B/op",
            "alloc B/row",
            "gain",
            "allocX",
            "gcX");

    private PeReport() {}

    static String header() {
        return HEADER;
    }

    /** Table lines for one step (every configuration at one thread count), baseline first. */
    static List<String> lines(List<StepMeasurement> step) {
        StepMeasurement base = step.get(0);
        List<String> lines = new ArrayList<>();
        for (StepMeasurement m : step) {
            boolean isBase = m == base;
            lines.add(String.format(
                    "%-10s %-24s %4d %10.0f %12.0f %9.1f %9.1f %9.1f %5d %7.3f %12s %11s %7s %7s %7s",
                    m.workload.label(),
                    m.target.label(),
                    m.threads,
                    m.opsPerSec(),
                    m.rowsPerSec(),
                    m.micros(50),
                    m.micros(99),
                    m.micros(99.9),
                    m.gcPauseCount(),
                    m.gcPauseSecondsPerSecond() * 1000,
                    number(m.allocBytesPerOp()),
                    number(m.allocBytesPerRow()),
                    isBase ? "base" : ratio(gain(m, base)),
                    isBase ? "" : ratio(allocReduction(m, base)),
                    isBase ? "" : ratio(gcReduction(m, base))));
            if (m.gc != null && !m.gc.byCollector().isEmpty()) {
                lines.add("    gc pauses (" + gcSourceLabel(m) + "): " + byCollector(m));
            }
            if (m.errors > 0) {
                lines.add("    ! " + m.errors + " worker(s) of " + m.target.label() + " failed: " + m.firstError);
            }
        }
        return lines;
    }

    private static String gcSourceLabel(StepMeasurement m) {
        String source = m.gcSource();
        if (source.equals("mxbean-fallback")) {
            return "GC MXBeans, fallback: JFR could not start; collection time, whole ms";
        }
        return m.gc.settled() ? source : source + ", not all delivered in time";
    }

    /** {@code G1New 12 pauses 1.234 ms/s, G1Old 2 pauses 0.101 ms/s} */
    private static String byCollector(StepMeasurement m) {
        List<String> parts = new ArrayList<>();
        m.gc.byCollector()
                .forEach((gc, p) -> parts.add(String.format(
                        "%s %d pauses %.3f ms/s", gc, p.count(), p.seconds() * 1000 / Math.max(1e-9, m.seconds()))));
        return String.join(", ", parts);
    }

    static double gain(StepMeasurement m, StepMeasurement base) {
        return base.opsPerSec() == 0 ? Double.NaN : m.opsPerSec() / base.opsPerSec();
    }

    /** How many times fewer heap bytes per row than the baseline. */
    static double allocReduction(StepMeasurement m, StepMeasurement base) {
        return m.allocBytesPerRow() > 0
                ? base.allocBytesPerRow() / m.allocBytesPerRow()
                : (base.allocBytesPerRow() > 0 ? Double.POSITIVE_INFINITY : Double.NaN);
    }

    /** How many times less GC pause time than the baseline (per second of run). */
    static double gcReduction(StepMeasurement m, StepMeasurement base) {
        double mine = m.gcPauseSeconds() / Math.max(1e-9, m.seconds());
        double theirs = base.gcPauseSeconds() / Math.max(1e-9, base.seconds());
        return mine > 0 ? theirs / mine : (theirs > 0 ? Double.POSITIVE_INFINITY : Double.NaN);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.0f", value);
    }

    private static String ratio(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return Double.isInfinite(value) ? "inf" : String.format("%.2fx", value);
    }

    /** Writes the JSON report: environment, settings and one record per (workload, configuration, threads). */
    static void writeJson(Path file, PeSettings settings, List<List<StepMeasurement>> steps) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", "blockscope pe");
        root.put("finishedAt", Instant.now().toString());
        root.put("environment", environment());
        root.put("settings", settings(settings));
        List<Map<String, Object>> records = new ArrayList<>();
        for (List<StepMeasurement> step : steps) {
            StepMeasurement base = step.get(0);
            for (StepMeasurement m : step) {
                records.add(record(m, base));
            }
        }
        root.put("records", records);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
    }

    private static Map<String, Object> record(StepMeasurement m, StepMeasurement base) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("workload", m.workload.label());
        r.put("readPath", m.target.readPath());
        r.put("deploy", m.target.deploy());
        r.put("target", m.target.url() == null ? "in-process" : m.target.url());
        r.put("threads", m.threads);
        r.put("seconds", round(m.seconds(), 3));
        r.put("ops", m.ops);
        r.put("rowsRead", m.rowsRead);
        r.put("rowsReturned", m.rowsReturned);
        r.put("opsPerSec", round(m.opsPerSec(), 1));
        r.put("rowsPerSec", round(m.rowsPerSec(), 1));
        r.put("returnedRowsPerSec", round(m.returnedRowsPerSec(), 1));
        r.put("p50Micros", round(m.micros(50), 1));
        r.put("p99Micros", round(m.micros(99), 1));
        r.put("p999Micros", round(m.micros(99.9), 1));
        r.put("meanMicros", round(m.meanMicros(), 1));
        r.put("maxMicros", round(m.maxMicros(), 1));
        r.put("gcSource", m.gcSource());
        r.put("gcSettled", m.gc == null || m.gc.settled());
        r.put("gcPauseCount", m.gcPauseCount());
        r.put("gcPauseSeconds", round(m.gcPauseSeconds(), 6));
        r.put("gcPauseSecondsPerSecond", round(m.gcPauseSecondsPerSecond(), 6));
        Map<String, Object> byCollector = new LinkedHashMap<>();
        if (m.gc != null) {
            m.gc.byCollector().forEach((gc, p) -> {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("pauseCount", p.count());
                c.put("pauseSeconds", round(p.seconds(), 6));
                c.put("pauseSecondsPerSecond", round(p.seconds() / Math.max(1e-9, m.seconds()), 6));
                byCollector.put(gc, c);
            });
        }
        r.put("gcByCollector", byCollector);
        r.put("allocBytesPerOp", finite(m.allocBytesPerOp()));
        r.put("allocBytesPerRow", finite(m.allocBytesPerRow()));
        r.put("processCpuSeconds", processCpuSeconds(m));
        r.put("processCpuNanosPerOp", finite(round(m.processCpuNanosPerOp(), 1)));
        r.put("allocSource", m.target.countsWorkerAllocation() ? "worker-threads" : "server-jvm");
        r.put("cacheHitRatio", finite(round(m.cacheHitRatio(), 5)));
        r.put("baseline", base.target.label());
        r.put("gainVsBaseline", finite(round(gain(m, base), 3)));
        r.put("allocReductionVsBaseline", finite(round(allocReduction(m, base), 2)));
        r.put("gcReductionVsBaseline", finite(round(gcReduction(m, base), 2)));
        r.put("slices", m.slices);
        r.put("errors", m.errors);
        if (m.firstError != null) {
            r.put("firstError", m.firstError);
        }
        return r;
    }

    private static Object processCpuSeconds(StepMeasurement m) {
        return m.processCpuNanos < 0 ? null : round(m.processCpuNanos / 1e9, 6);
    }

    private static Object finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static double round(double value, int digits) {
        if (!Double.isFinite(value)) {
            return value;
        }
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }

    static Map<String, Object> environment() {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("javaVersion", Runtime.version().toString());
        e.put("vm", System.getProperty("java.vm.name"));
        e.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        e.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        e.put("jvmArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        List<String> collectors = new ArrayList<>();
        ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> collectors.add(gc.getName()));
        e.put("garbageCollectors", collectors);
        e.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        e.put("cpu", cpuModel());
        // a shared machine: how busy it was is part of the figure
        e.put("loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return e;
    }

    /** The CPU model from /proc/cpuinfo (Linux), or the architecture elsewhere. */
    private static String cpuModel() {
        try (java.util.stream.Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }

    private static Map<String, Object> settings(PeSettings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workloads", s.workloads().stream().map(Workload::label).toList());
        m.put("threads", s.threads());
        m.put("durationSeconds", s.duration() == null ? null : s.duration().toMillis() / 1000.0);
        m.put("ops", s.ops() > 0 ? s.ops() : null);
        m.put("rounds", s.rounds());
        m.put("warmupSeconds", s.warmup().toMillis() / 1000.0);
        m.put("multiGetRows", s.multiGetRows());
        m.put("scanRows", s.scanRows());
        m.put("filter", s.filter());
        m.put("seed", s.seed());
        return m;
    }
}
