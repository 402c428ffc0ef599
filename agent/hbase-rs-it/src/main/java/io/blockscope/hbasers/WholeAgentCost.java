package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.blockscope.testsupport.ThreadCpu;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * {@code run-regionserver.sh whole --pairs N ...}: what the whole agent costs a RegionServer, as
 * example-server's {@code overhead.sh --rpc-rows} measures the RPC server. Each pair starts two fresh
 * RegionServer JVMs one after the other, A then B or B then A (alternating): A without the agent (or
 * with {@code --baseline-agent}'s jar), B with the built agent jar and its defaults. Each loads a
 * table, flushes and major-compacts it, so nothing flushes or compacts under the {@link ReadLoad}
 * that follows; after the warm-up, the measured window reads the server's CPU by thread kind
 * ({@link ThreadKinds}) at its ends. In B the agent's endpoint is scraped every 15 s from the load's
 * start ({@link AgentScrapes}), as a Prometheus would. Figures are B/A per pair ({@link
 * PairStatistics}).
 *
 * <pre>
 *   --pairs N                pairs of fresh JVMs (default 10)
 *   --threads N              client threads (default 2)
 *   --rows N                 rows of 1,000-byte values (default 20000)
 *   --warmup TIME            unmeasured load on each fresh server (default 40s)
 *   --duration TIME          the measured window (default 30s)
 *   --agent-options OPTS     agent options after 127.0.0.1:0, both arms (default: none, the defaults)
 *   --baseline-agent JAR     arm A runs this agent jar instead of none
 *   --workload read          the only workload
 *   --json FILE              the raw result, as docs/results/render.py's overhead tables read it
 * </pre>
 */
final class WholeAgentCost {

    private static final ThreadCpu.Part[] PARTS = ThreadCpu.Part.values();
    /** HBase caches its metrics for one period (1 s): read the window's end counters after it. */
    private static final long METRICS_PERIOD_MILLIS = 1_100;

    private static volatile RegionServerProcess running;

    private WholeAgentCost() {}

    static void run(List<String> args) throws Exception {
        Map<String, String> o = MixedLoadCost.options(args);
        int pairs = Integer.parseInt(o.getOrDefault("--pairs", "10"));
        int threads = Integer.parseInt(o.getOrDefault("--threads", "2"));
        int rows = Integer.parseInt(o.getOrDefault("--rows", "20000"));
        Duration warmup = MixedLoadCost.duration(o.getOrDefault("--warmup", "40s"));
        Duration window = MixedLoadCost.duration(o.getOrDefault("--duration", "30s"));
        String agentOptions = o.getOrDefault("--agent-options", "");
        Path baseline = o.containsKey("--baseline-agent") ? Path.of(o.get("--baseline-agent")) : null;
        if (!o.getOrDefault("--workload", "read").equals("read")) {
            throw new IllegalArgumentException("--workload: only read");
        }
        if (baseline != null && !Files.isRegularFile(baseline)) {
            throw new IllegalArgumentException("--baseline-agent names no file: " + baseline);
        }
        Path agentJar = AgentJar.locate();
        long nanosPerTick = ThreadCpu.nanosPerTick();
        // Ctrl-C or a kill of this launcher takes the running RegionServer with it
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            RegionServerProcess server = running;
            if (server != null) {
                server.close();
            }
        }));
        System.out.println("[whole] A: " + (baseline == null ? "no agent" : baseline) + "; B: " + agentJar
                + "; ratios are B/A, the order alternates A B, B A, ...");
        Measurement m = new Measurement(threads, rows, warmup, window, agentOptions, nanosPerTick);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            long pairStart = System.nanoTime();
            boolean bFirst = p % 2 == 1;
            for (boolean b : new boolean[] {bFirst, !bFirst}) {
                Map<String, Object> r = m.once(b ? agentJar : baseline, b || baseline != null);
                r.put("arm", b ? "B" : "A");
                r.put("pair", p);
                runs.add(r);
            }
            List<Map<String, Object>> pair = runs.subList(2 * p, 2 * p + 2);
            System.out.printf(
                    "[whole] pair %d/%d (%s first, %.0f s): cpu/op B/A %.4f, ops/s B/A %.4f%n",
                    p + 1,
                    pairs,
                    bFirst ? "B" : "A",
                    (System.nanoTime() - pairStart) / 1e9,
                    PairStatistics.pairRatios(pair, "cpuNanosPerOp")[0],
                    PairStatistics.pairRatios(pair, "opsPerSec")[0]);
        }
        Map<String, Object> report = report(args, o, pairs, baseline, agentJar, runs);
        String json = o.get("--json");
        if (json != null) {
            Path file = Path.of(json).toAbsolutePath();
            Files.createDirectories(file.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
            System.out.println("[whole] wrote " + file);
        }
    }

    /** One fresh RegionServer per call: prepare, warm up, measure one window, stop. */
    private static final class Measurement {
        private final int threads;
        private final int rows;
        private final Duration warmup;
        private final Duration window;
        private final String agentOptions;
        private final long nanosPerTick;

        Measurement(int threads, int rows, Duration warmup, Duration window, String agentOptions, long nanosPerTick) {
            this.threads = threads;
            this.rows = rows;
            this.warmup = warmup;
            this.window = window;
            this.agentOptions = agentOptions;
            this.nanosPerTick = nanosPerTick;
        }

        Map<String, Object> once(Path jar, boolean agent) throws Exception {
            RegionServerProcess.Builder builder = RegionServerProcess.builder()
                    .jvmOptions(jvmOptions())
                    // the one major compaction before the load needs it; nothing is written after
                    .site("hbase.regionserver.compaction.enabled", "true");
            if (agent) {
                builder.agent(agentOptions).agentJar(jar);
            }
            Instant started = Instant.now();
            RegionServerProcess server = builder.start();
            running = server;
            try (server;
                    ServerGauges gauges = ServerGauges.attach(server.pid());
                    ReadLoad load = ReadLoad.create(server, rows)) {
                Duration prepared = Duration.between(started, Instant.now());
                // as an operator's Prometheus would: from the load's start, every 15 s
                AgentScrapes scrapes = agent ? AgentScrapes.start(server.metricsUri()) : null;
                load.start(threads);
                Thread.sleep(warmup.toMillis());
                Map<String, Double> events0 = scrapes == null ? Map.of() : scrapes.eventCounters();
                Map<String, Long> countersBefore = gauges.hbaseCounters(ServerGauges.FLUSH_AND_COMPACTION);
                long gc0 = gauges.gcPauseMillis();
                double load0 = loadAverage();
                long errors0 = load.threads().errors();
                long ops0 = load.threads().operations();
                long t0 = System.nanoTime();
                long[] parts0 = ThreadCpu.read(server.pid(), nanosPerTick);
                Thread.sleep(window.toMillis());
                long[] parts1 = ThreadCpu.read(server.pid(), nanosPerTick);
                Map<String, Integer> threadsAtEnd = ThreadCpu.threadCounts(server.pid());
                long ops = load.threads().operations() - ops0;
                long elapsed = System.nanoTime() - t0;
                long errors = load.threads().errors() - errors0;
                long gcMillis = gauges.gcPauseMillis() - gc0;
                Map<String, Double> events1 = scrapes == null ? Map.of() : scrapes.eventCounters();
                if (scrapes != null) {
                    scrapes.close();
                }
                Thread.sleep(METRICS_PERIOD_MILLIS);
                Map<String, Long> countersAfter = gauges.hbaseCounters(ServerGauges.FLUSH_AND_COMPACTION);
                if (ops == 0 || errors * 10 > ops) {
                    throw new IllegalStateException(
                            "pid " + server.pid() + ": " + ops + " operations, " + errors + " failed",
                            load.threads().firstError());
                }
                Map<String, Object> r = record(parts0, parts1, ops, elapsed);
                r.put("agent", agent);
                r.put("threadsByKindAtEnd", threadsAtEnd);
                if (scrapes != null) {
                    r.put("agentScrapes", scrapes.scrapes());
                    r.put("agentScrapeFailures", scrapes.failures());
                    // two more scrapes bracket the window: the advice's events per client operation
                    r.put("agentEventsPerOp", AgentScrapes.perOperation(events0, events1, ops));
                }
                r.put("errors", errors);
                r.put("gcPauseSeconds", gcMillis / 1e3);
                r.put("hbaseCountersBefore", countersBefore);
                r.put("hbaseCountersAfter", countersAfter);
                boolean quiet = countersAfter.equals(countersBefore) && !countersBefore.containsValue(-1L);
                r.put("noFlushOrCompactionInWindow", quiet);
                if (!quiet) {
                    r.put("note", "HBase's flush/compaction counters moved (or were missing) across the window");
                }
                r.put("loadAverageAtStart", round2(load0));
                r.put("loadAverage", round2(loadAverage()));
                r.put("rsJdk", gauges.jdk());
                r.put("hbaseVersion", load.hbaseVersion());
                r.put("pid", server.pid());
                r.put("startupMs", server.startup().toMillis());
                r.put("preparedMs", prepared.toMillis());
                System.out.printf(
                        "[whole]   %s pid %d: %.1f us/op, %.0f ops/s, gc %.2f s, load %.1f%s%n",
                        agent ? (jar == null ? "agent" : jar.getFileName()) : "no agent",
                        server.pid(),
                        ((Number) r.get("cpuNanosPerOp")).doubleValue() / 1e3,
                        ((Number) r.get("opsPerSec")).doubleValue(),
                        gcMillis / 1e3,
                        loadAverage(),
                        quiet
                                ? ""
                                : " (flush/compaction counters moved: " + countersBefore + " -> " + countersAfter
                                        + ")");
                return r;
            } finally {
                running = null;
            }
        }

        private static Map<String, Object> record(long[] parts0, long[] parts1, long ops, long elapsedNanos) {
            Map<String, Object> r = new LinkedHashMap<>();
            long cpu = parts1[parts1.length - 1] - parts0[parts0.length - 1];
            r.put("cpuNanosPerOp", (double) cpu / ops);
            r.put("opsPerSec", ops / (elapsedNanos / 1e9));
            r.put("ops", ops);
            r.put("serverCpuSeconds", cpu / 1e9);
            Map<String, Double> byPart = new LinkedHashMap<>();
            for (int i = 0; i < parts1.length; i++) {
                String part = i < PARTS.length ? PARTS[i].label() : PairStatistics.TOTAL;
                byPart.put(part, (double) (parts1[i] - parts0[i]) / ops);
            }
            r.put(PairStatistics.BY_PART, byPart);
            return r;
        }
    }

    private static Map<String, Object> report(
            List<String> args,
            Map<String, String> o,
            int pairs,
            Path baseline,
            Path agentJar,
            List<Map<String, Object>> runs) {
        double[] cpuRatios = PairStatistics.pairRatios(runs, "cpuNanosPerOp");
        double[] opsRatios = PairStatistics.pairRatios(runs, "opsPerSec");
        double[] cpu = SwitchStatistics.medianInterval(cpuRatios);
        double[] ops = SwitchStatistics.medianInterval(opsRatios);
        long forOnePercent = PairStatistics.pairsForHalfWidth(cpu[1], cpu[2], pairs, 0.01);
        long busy = runs.stream()
                .filter(r -> !Boolean.TRUE.equals(r.get("noFlushOrCompactionInWindow")))
                .count();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope run-regionserver.sh whole");
        report.put("date", Instant.now().toString());
        report.put("jdk", System.getProperty("java.runtime.version")); // the servers run on this JDK too
        report.put("hbaseVersion", VersionInfo.getVersion());
        report.put(
                "machine",
                String.format(
                        "%s, %d cores (load average %.1f at the end)",
                        RegionServerMain.cpuModel(), Runtime.getRuntime().availableProcessors(), loadAverage()));
        report.put("command", command(args, o));
        report.put("pairs", pairs);
        report.put("armA", baseline == null ? "no agent" : baseline.toString());
        report.put("armB", agentJar.toString());
        report.put(
                "measured",
                "RegionServer process CPU (all threads) per client operation of a read-only load (gets, multi-gets,"
                        + " scans, a regex value filter) on a flushed, major-compacted table, in a fresh JVM per run,"
                        + " over the measured window after " + o.getOrDefault("--warmup", "40s")
                        + " of unmeasured load");
        report.put("cpuPerOpRatio", MixedLoadCost.interval(cpu, 1));
        report.put("throughputRatio", MixedLoadCost.interval(ops, 1));
        report.put("extraCpuPerOpPercent", MixedLoadCost.interval(cpu, 100));
        report.put("pairCpuRatios", cpuRatios);
        report.put("pairThroughputRatios", opsRatios);
        report.put("pairsForOnePercentEstimate", forOnePercent);
        report.put("runsWithFlushOrCompactionInWindow", busy);
        Map<String, Object> byPart = new LinkedHashMap<>();
        for (ThreadCpu.Part part : PARTS) {
            double[] i = SwitchStatistics.medianInterval(PairStatistics.partShares(runs, part.label()));
            byPart.put(part.label(), MixedLoadCost.interval(i, 1));
            System.out.printf(
                    "[whole] part %-6s %+.3f%% of A's CPU per op [%+.3f, %+.3f]%n", part.label(), i[0], i[1], i[2]);
        }
        report.put("extraCpuPerOpPercentByPart", byPart);
        report.put("runs", runs);
        System.out.printf(
                "[whole] %d pairs: cpu/op B/A median %.4f, 95%% CI [%.4f, %.4f] (extra CPU %+.2f%% [%+.2f%%, %+.2f%%]);"
                        + " ops/s B/A median %.4f [%.4f, %.4f]; %d runs with a flush or compaction in the window%n",
                pairs,
                cpu[0],
                cpu[1],
                cpu[2],
                (cpu[0] - 1) * 100,
                (cpu[1] - 1) * 100,
                (cpu[2] - 1) * 100,
                ops[0],
                ops[1],
                ops[2],
                busy);
        System.out.printf(
                "[whole] per-pair CPU/op ratios %s; about %d pairs would bring the interval to +-1%%"
                        + " (half-width scales as 1/sqrt(pairs); an estimate from this run's spread)%n",
                Arrays.toString(cpuRatios), forOnePercent);
        return report;
    }

    /**
     * The command as typed (the script quotes with printf %q, which escapes commas), with {@code
     * --workload read} added where left to its default: docs/results/render.py labels rows by it.
     */
    private static String command(List<String> args, Map<String, String> o) {
        String command = System.getProperty(
                        "blockscope.startup.command", "run-regionserver.sh whole " + String.join(" ", args))
                .replace("\\,", ",");
        return o.containsKey("--workload") ? command : command + " --workload read";
    }

    /** Extra JVM options for every server, from {@code blockscope.rs.jvmOptions} (RS_JVM_OPTS). */
    private static List<String> jvmOptions() {
        String options = System.getProperty("blockscope.rs.jvmOptions", "").trim();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
