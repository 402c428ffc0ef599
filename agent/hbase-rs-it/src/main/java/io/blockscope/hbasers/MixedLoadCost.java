package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * {@code run-regionserver.sh cost --agent-switch PAIRS ...}: what the agent's probes cost a real
 * RegionServer under a {@link MixedLoad}, measured as {@code pe --agent-switch} measures the example
 * server: one RegionServer JVM with the diagnostics agent jar, windows alternating with the probes
 * paused and recording ({@code --switch-mode pause}) or removed and installed ({@code install}), the
 * RegionServer process's CPU per client operation of each on window against its two off neighbours
 * ({@link SwitchStatistics}). The load runs throughout; a window only reads the counters at its ends.
 *
 * <pre>
 *   --agent-switch PAIRS     on windows, each between two off windows (default 40)
 *   --switch-mode MODE       pause (default) or install
 *   --switch-probes SPEC     what the on windows record (pause) or install: all, or probe names
 *   --switch-settle TIME     unmeasured load after each switch (default 0s; give install mode a few seconds)
 *   --workload mixed         the only workload
 *   --threads N              client threads (default 2)
 *   --warmup TIME            load before the first window (default 30s)
 *   --duration TIME          each window's length (default 2s)
 *   --agent-options OPTS     agent options after 127.0.0.1:0 (default: none, the defaults)
 *   --json FILE              the raw result, as docs/results/render.py reads it
 * </pre>
 */
final class MixedLoadCost {

    private static final List<String> HBASE_COUNTERS =
            List.of("flushedCellsCount", "flushedOutputBytes", "compactedCellsCount", "compactedInputBytes");

    private MixedLoadCost() {}

    static void run(List<String> args) throws Exception {
        Map<String, String> o = options(args);
        int pairs = Integer.parseInt(o.getOrDefault("--agent-switch", "40"));
        boolean pause = o.getOrDefault("--switch-mode", "pause").equals("pause");
        String probes = o.getOrDefault("--switch-probes", "all");
        Duration settle = duration(o.getOrDefault("--switch-settle", "0s"));
        int threads = Integer.parseInt(o.getOrDefault("--threads", "2"));
        Duration warmup = duration(o.getOrDefault("--warmup", "30s"));
        Duration window = duration(o.getOrDefault("--duration", "2s"));
        if (!o.getOrDefault("--workload", "mixed").equals("mixed")) {
            throw new IllegalArgumentException("--workload: only mixed");
        }
        Path jar = Path.of(RegionServerProcess.required("blockscope.agent.jar"))
                .resolveSibling("blockscope-agent-diagnostics.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " not found: build it (mvn -pl agent/hbase-rs-it -am package)");
        }
        List<Map<String, Object>> windows = new ArrayList<>();
        Map<String, Long> hbaseBefore;
        Map<String, Long> hbaseAfter;
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .agent(o.getOrDefault("--agent-options", ""))
                        .agentJar(jar)
                        .site("hbase.regionserver.compaction.enabled", "true")
                        // puts fill 2 MB memstores: a flush every few seconds, a compaction every three files
                        .site("hbase.hregion.memstore.flush.size", Integer.toString(2 << 20))
                        .start();
                MixedLoad load = MixedLoad.create(server);
                RegionServerSwitch rs = RegionServerSwitch.attach(server.pid())) {
            // Ctrl-C or a kill of this launcher takes the RegionServer with it
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            String previous = rs.installed();
            String on = rs.install(probes);
            System.out.println("[cost] RegionServer " + server.pid() + ": probes " + rs.probes() + "; on windows "
                    + (pause ? "record " : "install ") + on + ", off windows " + (pause ? "pause them" : "none"));
            load.start(threads);
            Thread.sleep(warmup.toMillis());
            hbaseBefore = rs.hbaseMetrics(HBASE_COUNTERS);
            try {
                for (int i = 0; i < 2 * pairs + 1; i++) {
                    boolean recording = i % 2 == 1;
                    if (pause) {
                        rs.pause(!recording);
                    } else {
                        rs.install(recording ? on : "none");
                    }
                    Thread.sleep(settle.toMillis());
                    windows.add(window(i, recording, recording ? on : pause ? "paused" : "none", rs, load, window));
                }
            } finally {
                rs.pause(false);
                rs.install(previous);
            }
            hbaseAfter = rs.hbaseMetrics(HBASE_COUNTERS);
        }
        Map<String, Object> report = report(args, pairs, pause, windows, hbaseBefore, hbaseAfter);
        System.out.println(report.get("summary"));
        String json = o.get("--json");
        if (json != null) {
            Path file = Path.of(json).toAbsolutePath();
            Files.createDirectories(file.getParent());
            new ObjectMapper().writeValue(file.toFile(), report); // compact: docs/ has a size budget
            System.out.println("[cost] wrote " + file);
        }
    }

    private static Map<String, Object> window(
            int index, boolean recording, String probes, RegionServerSwitch rs, MixedLoad load, Duration length)
            throws Exception {
        long errorsBefore = load.threads().errors();
        long ops0 = load.threads().operations();
        long cpu0 = rs.cpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(length.toMillis());
        long cpu = rs.cpuNanos() - cpu0;
        long ops = load.threads().operations() - ops0;
        long elapsed = System.nanoTime() - t0;
        long errors = load.threads().errors() - errorsBefore;
        if (ops == 0 || errors * 10 > ops) {
            throw new IllegalStateException(
                    "window " + index + ": " + ops + " operations, " + errors + " failed",
                    load.threads().firstError());
        }
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("agent", recording);
        w.put("probes", probes);
        w.put("window", index);
        w.put("cpuNanosPerOp", Math.round((double) cpu / ops));
        w.put("opsPerSec", Math.round(ops / (elapsed / 1e9)));
        w.put("ops", ops);
        w.put("errors", errors);
        w.put("loadAverage", Math.round(loadAverage() * 100) / 100.0);
        System.out.printf(
                "[cost] window %d %s: %.1f us/op, %.0f ops/s, load %.1f%n",
                index, probes, (double) cpu / ops / 1e3, ops / (elapsed / 1e9), loadAverage());
        return w;
    }

    private static Map<String, Object> report(
            List<String> args,
            int pairs,
            boolean pause,
            List<Map<String, Object>> windows,
            Map<String, Long> hbaseBefore,
            Map<String, Long> hbaseAfter) {
        double[] cpu = new double[windows.size()];
        double[] throughput = new double[windows.size()];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = ((Number) windows.get(i).get("cpuNanosPerOp")).doubleValue();
            throughput[i] = ((Number) windows.get(i).get("opsPerSec")).doubleValue();
        }
        double[] ratios = SwitchStatistics.pairRatios(cpu);
        double[] cpuInterval = SwitchStatistics.medianInterval(ratios);
        double[] opsInterval = SwitchStatistics.medianInterval(SwitchStatistics.pairRatios(throughput));
        Map<String, Object> counters = new LinkedHashMap<>();
        hbaseAfter.forEach((name, after) -> counters.put(name, after - hbaseBefore.getOrDefault(name, 0L)));
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope run-regionserver.sh cost");
        report.put("date", Instant.now().toString());
        report.put("jdk", System.getProperty("java.runtime.version")); // the server runs on this JDK too
        report.put("hbaseVersion", VersionInfo.getVersion());
        report.put("machine", machine());
        report.put(
                "command",
                // the script quotes with printf %q, which escapes the commas of a probe list
                System.getProperty("blockscope.startup.command", "run-regionserver.sh cost " + String.join(" ", args))
                        .replace("\\,", ","));
        report.put("pairs", pairs);
        report.put(
                "measured",
                "RegionServer process CPU (all threads) per client operation of a mixed load (puts, gets, multi-gets,"
                        + " scans, a regex value filter; flushes and compactions as they come), one warm JVM, probes "
                        + (pause ? "recording / paused" : "installed / removed") + "; on window vs the mean of its"
                        + " neighbours");
        report.put("probes", windows.get(1).get("probes"));
        report.put("hbaseCountersOverTheWindows", counters);
        report.put("cpuPerOpRatio", interval(cpuInterval, 1));
        report.put("throughputRatio", interval(opsInterval, 1));
        report.put("extraCpuPerOpPercent", interval(cpuInterval, 100));
        report.put("runs", windows);
        report.put("pairCpuRatios", ratios);
        report.put(
                "summary",
                String.format(
                        "[cost] %d pairs: extra CPU per op %+.2f%% [%+.2f%%, %+.2f%%]; ops/s on/off %.4f [%.4f, %.4f];"
                                + " HBase over the windows: %s",
                        pairs,
                        (cpuInterval[0] - 1) * 100,
                        (cpuInterval[1] - 1) * 100,
                        (cpuInterval[2] - 1) * 100,
                        opsInterval[0],
                        opsInterval[1],
                        opsInterval[2],
                        counters));
        return report;
    }

    /** A ratio's interval as the raw files hold it; {@code scale} 100 gives the change in per cent. */
    static Map<String, Object> interval(double[] i, double scale) {
        Map<String, Object> m = new LinkedHashMap<>();
        double shift = scale == 1 ? 0 : 1;
        m.put("median", (i[0] - shift) * scale);
        m.put("low", (i[1] - shift) * scale);
        m.put("high", (i[2] - shift) * scale);
        m.put("level", SwitchStatistics.LEVEL);
        m.put("resamples", SwitchStatistics.RESAMPLES);
        return m;
    }

    static Map<String, String> options(List<String> args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            if (!args.get(i).startsWith("--") || i + 1 >= args.size()) {
                throw new IllegalArgumentException("options come as --name value pairs, at: " + args.get(i));
            }
            o.put(args.get(i), args.get(i + 1));
        }
        return o;
    }

    /** 500ms, 2s, 1m. */
    static Duration duration(String text) {
        if (text.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
        }
        long n = Long.parseLong(text.substring(0, text.length() - 1));
        switch (text.charAt(text.length() - 1)) {
            case 's':
                return Duration.ofSeconds(n);
            case 'm':
                return Duration.ofMinutes(n);
            default:
                throw new IllegalArgumentException("a duration such as 500ms, 2s or 1m, got " + text);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String machine() {
        return String.format(
                "%s, %d cores, shared with other builds (load %.2f at the end)",
                RegionServerMain.cpuModel(), Runtime.getRuntime().availableProcessors(), loadAverage());
    }
}
