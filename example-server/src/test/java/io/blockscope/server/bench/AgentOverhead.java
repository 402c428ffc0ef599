package io.blockscope.server.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.blockscope.server.pe.Bootstrap;
import io.blockscope.server.pe.ProbeSwitchRun;
import io.blockscope.testsupport.ThreadCpu;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's cost per operation, measured as process CPU time (all threads) per PE operation in
 * fresh JVMs, agent off and on, alternated in many short pairs (off-on, on-off, ...) so that the
 * drift of a shared machine hits both sides alike. Reports the median of the per-pair ratios
 * on/off with a 95% percentile-bootstrap interval (10,000 resamples), and the throughput ratio as
 * a second figure. The agent cannot be switched off at run time, hence fresh JVMs.
 *
 * <p>With {@code --baseline-agent OLD.jar} the A side runs that jar (same options) instead of no
 * agent: B/A is then what a change to the agent costs ({@code agent/bench-whole.sh --vs-ref}).
 *
 * <p>In-process (default): PE reads its own table, so the figure is the PE process's CPU per
 * operation over PE's measured slices. With {@code --rpc-rows N}: a table of N rows is loaded once,
 * every run starts a fresh {@code serve} JVM (agent on or off) on it, drives it over RPC with a PE
 * client for {@code --rpc-warmup} (unmeasured), then measures the server process's CPU (from the OS)
 * around a second PE run: the server's CPU per operation, the client's not included.
 *
 * <pre>
 * example-server/overhead.sh --agent agent/target/blockscope-agent.jar --pairs 20 \
 *     --out docs/results/agent-overhead-multiget.json -- --workload multiget --threads 2 ...
 * example-server/overhead.sh --agent agent/target/blockscope-agent.jar --pairs 8 --rpc-rows 50000 \
 *     --rpc-warmup 20s -- --workload multiget --threads 2 --warmup 0s --duration 10s --rounds 1
 * </pre>
 */
public final class AgentOverhead {

    private static final int RESAMPLES = 10_000;
    private static final double LEVEL = 0.95;
    private static final ThreadCpu.Part[] PARTS = ThreadCpu.Part.values();
    private static final long NANOS_PER_TICK = ThreadCpu.nanosPerTick();
    private static final String BY_PART = "cpuNanosPerOpByPart";
    private static final String TOTAL = "total";

    private AgentOverhead() {}

    public static void main(String[] args) throws Exception {
        Path serverJar = Path.of("example-server/target/blockscope-example-server.jar");
        Path agentJar = null;
        Path baselineJar = null;
        String agentOptions = "127.0.0.1:0";
        int pairs = 20;
        Path out = null;
        Rpc rpc = null;
        List<String> peArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> serverJar = Path.of(args[++i]);
                case "--agent" -> agentJar = Path.of(args[++i]);
                case "--baseline-agent" -> baselineJar = Path.of(args[++i]);
                case "--agent-options" -> agentOptions = args[++i];
                case "--pairs" -> pairs = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--rpc-rows" -> rpc = new Rpc(Integer.parseInt(args[++i]), rpc == null ? "20s" : rpc.warmup());
                case "--rpc-warmup" -> rpc = new Rpc(rpc == null ? 100_000 : rpc.rows(), args[++i]);
                case "--" -> {
                    peArgs.addAll(List.of(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default ->
                    throw new IllegalArgumentException("unknown option " + args[i]
                            + "; usage: --agent JAR [--baseline-agent JAR] [--server JAR] [--agent-options O] [--pairs N] [--out FILE]"
                            + " [--rpc-rows N] [--rpc-warmup DURATION] -- PE_OPTIONS");
            }
        }
        if (agentJar == null || !Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("--agent must name the built agent jar (mvn -pl agent -am package"
                    + " -DskipTests), got " + agentJar);
        }
        if (baselineJar != null && !Files.isRegularFile(baselineJar)) {
            throw new IllegalArgumentException("--baseline-agent names no file: " + baselineJar);
        }
        String ratio = baselineJar == null ? "on/off" : "B/A";
        System.err.println("[overhead] A: " + (baselineJar == null ? "no agent" : baselineJar) + "; B: " + agentJar
                + "; ratios are B/A, the order alternates A B, B A, ...");
        List<Map<String, Object>> runs = new ArrayList<>();
        Path scratch = Files.createTempDirectory("blockscope-overhead");
        if (rpc != null) {
            loadTable(serverJar, rpc.rows(), scratch);
        }
        for (int p = 0; p < pairs; p++) {
            boolean bFirst = p % 2 == 1;
            for (boolean b : new boolean[] {bFirst, !bFirst}) {
                Path jar = b ? agentJar : baselineJar;
                Map<String, Object> r = rpc == null
                        ? run(serverJar, jar, agentOptions, peArgs, scratch)
                        : runRpc(serverJar, jar, agentOptions, peArgs, rpc, scratch);
                r.put("arm", b ? "B" : "A");
                r.put("pair", p);
                runs.add(r);
            }
            List<Map<String, Object>> pair = runs.subList(2 * p, 2 * p + 2);
            System.err.printf(
                    "[overhead] pair %d/%d (%s first): cpu/op %s %.4f, ops/s %s %.4f%n",
                    p + 1,
                    pairs,
                    bFirst ? "B" : "A",
                    ratio,
                    pairRatios(pair, "cpuNanosPerOp")[0],
                    ratio,
                    pairRatios(pair, "opsPerSec")[0]);
        }
        double[] cpuRatios = pairRatios(runs, "cpuNanosPerOp");
        double[] throughputRatios = pairRatios(runs, "opsPerSec");
        Bootstrap.Interval cpu = interval(cpuRatios);
        Bootstrap.Interval ops = interval(throughputRatios);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope agent-overhead");
        report.put("date", Instant.now().toString());
        report.put("jdk", Runtime.version().toString());
        report.put("machine", ProbeSwitchRun.machine());
        report.put("command", "example-server/overhead.sh " + String.join(" ", args));
        report.put("pairs", pairs);
        report.put("armA", baselineJar == null ? "no agent" : baselineJar.toString());
        report.put("armB", agentJar.toString());
        report.put(
                "measured",
                rpc == null
                        ? "in-process PE: CPU of the PE process (reads, GC, JIT, agent) per operation, measured slices only"
                        : "RPC server: CPU of the server process per operation of a PE client over RPC, after "
                                + rpc.warmup() + " of unmeasured load on the fresh server");
        report.put("cpuPerOpRatio", ProbeSwitchRun.interval(cpu));
        report.put("throughputRatio", ProbeSwitchRun.interval(ops));
        report.put("extraCpuPerOpPercent", ProbeSwitchRun.interval(cpu.asPercentChange()));
        report.put("pairCpuRatios", cpuRatios);
        report.put("pairThroughputRatios", throughputRatios);
        long forOnePercent = pairsForHalfWidth(cpu, pairs, 0.01);
        report.put("pairsForOnePercentEstimate", forOnePercent);
        if (rpc != null) {
            report.put("extraCpuPerOpPercentByPart", byPart(runs));
        }
        report.put("runs", runs);
        String summary = ProbeSwitchRun.summary("[overhead]", pairs, cpu, ops, ratio);
        System.out.println(summary);
        System.out.printf(
                "[overhead] per-pair CPU/op ratios %s; about %d pairs would bring the interval to +-1%%"
                        + " (half-width scales as 1/sqrt(pairs); an estimate from this run's spread)%n",
                Arrays.toString(cpuRatios), forOnePercent);
        if (out != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), report);
            System.err.println("[overhead] wrote " + out);
        }
    }

    /**
     * B/A of {@code key} per pair, from the runs in the order they ran: each pair is two adjacent
     * runs, arm A and arm B in either order.
     */
    static double[] pairRatios(List<Map<String, Object>> runs, String key) {
        if (runs.size() % 2 != 0) {
            throw new IllegalArgumentException("runs come in pairs, got " + runs.size());
        }
        double[] ratios = new double[runs.size() / 2];
        for (int p = 0; p < ratios.length; p++) {
            Map<String, Object> x = runs.get(2 * p);
            Map<String, Object> y = runs.get(2 * p + 1);
            if (x.get("arm").equals(y.get("arm"))) {
                throw new IllegalArgumentException("pair " + p + " holds two runs of arm " + x.get("arm"));
            }
            Map<String, Object> b = "B".equals(x.get("arm")) ? x : y;
            Map<String, Object> a = b == x ? y : x;
            ratios[p] = ((Number) b.get(key)).doubleValue() / ((Number) a.get(key)).doubleValue();
        }
        return ratios;
    }

    /**
     * Where the server's extra CPU per operation goes: per part of {@link ThreadCpu}, the median over
     * the pairs of (B's part - A's part) / A's total CPU per operation, in percent, with its interval.
     * The parts' per-pair figures add up to the pair's whole change; their medians need not.
     */
    private static Map<String, Object> byPart(List<Map<String, Object>> runs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (ThreadCpu.Part part : PARTS) {
            Bootstrap.Interval i = interval(partShares(runs, part.label()));
            out.put(part.label(), ProbeSwitchRun.interval(i));
            System.out.printf(
                    "[overhead] part %-6s %+.3f%% of A's CPU per op [%+.3f, %+.3f]%n",
                    part.label(), i.median(), i.low(), i.high());
        }
        return out;
    }

    /** Per pair, (B's {@code part} - A's {@code part}) over A's total, in percent (runs paired as ran). */
    @SuppressWarnings("unchecked")
    static double[] partShares(List<Map<String, Object>> runs, String part) {
        double[] shares = new double[runs.size() / 2];
        for (int p = 0; p < shares.length; p++) {
            Map<String, Object> x = runs.get(2 * p);
            Map<String, Object> y = runs.get(2 * p + 1);
            Map<String, Double> b = (Map<String, Double>) ("B".equals(x.get("arm")) ? x : y).get(BY_PART);
            Map<String, Double> a = (Map<String, Double>) ("B".equals(x.get("arm")) ? y : x).get(BY_PART);
            shares[p] = 100 * (b.get(part) - a.get(part)) / a.get(TOTAL);
        }
        return shares;
    }

    /** The median of per-pair ratios with its 95% percentile-bootstrap interval (pairs resampled). */
    static Bootstrap.Interval interval(double[] pairRatios) {
        return Bootstrap.medianInterval(pairRatios, RESAMPLES, LEVEL, 20L);
    }

    /**
     * Pairs that would bring the interval's half-width to {@code halfWidth} (0.01 is 1%), at this
     * run's spread: the half-width of a median's interval shrinks as 1/sqrt(pairs). At least 1.
     */
    static long pairsForHalfWidth(Bootstrap.Interval interval, int pairs, double halfWidth) {
        double measured = (interval.high() - interval.low()) / 2;
        // less a hair, so that a float just above a whole number of pairs does not round up past it
        return Math.max(1, (long) Math.ceil(pairs * Math.pow(measured / halfWidth, 2) - 1e-9));
    }

    /** One fresh JVM running PE; its process CPU per operation and throughput from PE's JSON. */
    private static Map<String, Object> run(
            Path serverJar, Path agentJar, String agentOptions, List<String> peArgs, Path scratch)
            throws IOException, InterruptedException {
        Path json = Files.createTempFile(scratch, "pe", ".json");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms1g");
        command.add("-Xmx1g");
        if (agentJar != null) {
            command.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + agentOptions);
        }
        command.addAll(List.of("-jar", serverJar.toString(), "pe", "--no-progress", "--json", json.toString()));
        command.addAll(peArgs);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(scratch.resolve("last-run.log").toFile())
                .start();
        int exit = process.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(
                    "PE exited with " + exit + ": " + command + "; see " + scratch.resolve("last-run.log"));
        }
        JsonNode records = new ObjectMapper().readTree(json.toFile()).path("records");
        if (records.size() != 1) {
            throw new IllegalArgumentException("give PE one workload, one thread count and one configuration (got "
                    + records.size() + " records)");
        }
        JsonNode r = records.get(0);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent", agentJar != null);
        m.put("cpuNanosPerOp", r.path("processCpuNanosPerOp").asDouble());
        m.put("opsPerSec", r.path("opsPerSec").asDouble());
        m.put("ops", r.path("ops").asLong());
        m.put("gcPauseSeconds", r.path("gcPauseSeconds").asDouble());
        m.put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Files.delete(json);
        return m;
    }

    /** The RPC variant's table ({@code load}) and the unmeasured load each fresh server gets first. */
    record Rpc(int rows, String warmup) {}

    private static void loadTable(Path serverJar, int rows, Path scratch) throws IOException, InterruptedException {
        exec(
                List.of(
                        java(),
                        "-jar",
                        serverJar.toString(),
                        "load",
                        "--data",
                        scratch.resolve("data").toString(),
                        "--rows",
                        Integer.toString(rows)),
                scratch.resolve("load.log"));
    }

    /**
     * One fresh server JVM (agent on or off) on the loaded table, driven over RPC by PE clients in
     * their own JVMs: an unmeasured warm-up run, then the measured run, with the server's process
     * CPU read just before and after it. The client's cost is not in the figure. The warm-up's PE
     * starts the server's JFR GC reader as it connects ({@code RpcTarget}), so the recompilation that
     * JFR's start forces on a server without the agent falls in the warm-up, not in the measurement.
     */
    private static Map<String, Object> runRpc(
            Path serverJar, Path agentJar, String agentOptions, List<String> peArgs, Rpc rpc, Path scratch)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java(), "-Xms1g", "-Xmx1g", "-XX:MaxDirectMemorySize=1g"));
        if (agentJar != null) {
            command.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + agentOptions);
        }
        command.addAll(List.of(
                "-jar",
                serverJar.toString(),
                "serve",
                "--data",
                scratch.resolve("data").toString(),
                "--port",
                "0",
                "--warm",
                "--l2-size",
                "512m"));
        Path log = scratch.resolve("server.log");
        Process server = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            String url = awaitListening(server, log);
            List<String> warm = new ArrayList<>(
                    List.of(java(), "-jar", serverJar.toString(), "pe", "--no-progress", "--target", url));
            warm.addAll(withDuration(peArgs, rpc.warmup()));
            exec(warm, scratch.resolve("pe-warmup.log"));
            Path json = Files.createTempFile(scratch, "pe", ".json");
            List<String> measured = new ArrayList<>(List.of(
                    java(),
                    "-jar",
                    serverJar.toString(),
                    "pe",
                    "--no-progress",
                    "--target",
                    url,
                    "--json",
                    json.toString()));
            measured.addAll(peArgs);
            long[] partsBefore = ThreadCpu.read(server.pid(), NANOS_PER_TICK);
            long cpuBefore = cpuNanos(server);
            exec(measured, scratch.resolve("pe.log"));
            long cpuAfter = cpuNanos(server);
            long[] partsAfter = ThreadCpu.read(server.pid(), NANOS_PER_TICK);
            JsonNode r = singleRecord(json);
            long ops = r.path("ops").asLong();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("agent", agentJar != null);
            m.put("cpuNanosPerOp", ops == 0 ? Double.NaN : (double) (cpuAfter - cpuBefore) / ops);
            m.put("opsPerSec", r.path("opsPerSec").asDouble());
            m.put("ops", ops);
            m.put("serverCpuSeconds", (cpuAfter - cpuBefore) / 1e9);
            Map<String, Double> byPart = new LinkedHashMap<>();
            for (int i = 0; i < partsAfter.length; i++) {
                String part = i < PARTS.length ? PARTS[i].label() : TOTAL;
                byPart.put(part, ops == 0 ? Double.NaN : (double) (partsAfter[i] - partsBefore[i]) / ops);
            }
            m.put(BY_PART, byPart);
            m.put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            Files.delete(json);
            return m;
        } finally {
            server.destroy();
            if (!server.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    private static String awaitListening(Process server, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        String marker = "blockscope-example-server listening on ";
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited with " + server.exitValue() + "; see " + log);
            }
            for (String line : Files.readAllLines(log)) {
                int at = line.indexOf(marker);
                if (at >= 0) {
                    return line.substring(at + marker.length()).trim();
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the server did not start within 300 s; see " + log);
    }

    /** Process CPU (user + system) of a child, from the OS; 10 ms resolution on Linux. */
    private static long cpuNanos(Process process) {
        return process.info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("the OS does not report the server's CPU time"))
                .toNanos();
    }

    /** The PE options with {@code --duration} set to {@code duration} (the warm-up run's length). */
    static List<String> withDuration(List<String> peArgs, String duration) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < peArgs.size(); i++) {
            if (peArgs.get(i).equals("--duration") && i + 1 < peArgs.size()) {
                i++;
            } else if (!peArgs.get(i).startsWith("--duration=")) {
                out.add(peArgs.get(i));
            }
        }
        out.add("--duration");
        out.add(duration);
        return out;
    }

    private static void exec(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int exit = process.waitFor();
        if (exit != 0) {
            throw new IllegalStateException("exited with " + exit + ": " + command + "; see " + log);
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static JsonNode singleRecord(Path json) throws IOException {
        JsonNode records = new ObjectMapper().readTree(json.toFile()).path("records");
        if (records.size() != 1) {
            throw new IllegalArgumentException("give PE one workload, one thread count and one configuration (got "
                    + records.size() + " records)");
        }
        return records.get(0);
    }
}
