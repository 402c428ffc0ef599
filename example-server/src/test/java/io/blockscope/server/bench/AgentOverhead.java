package io.blockscope.server.bench;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The agent's cost per operation, measured as process CPU time (all threads) per PE operation in
 * fresh JVMs, agent off and on, alternated in many short pairs (off-on, on-off, ...) so that the
 * drift of a shared machine hits both sides alike. Reports the median of the per-pair ratios
 * on/off with a 95% percentile-bootstrap interval (10,000 resamples), and the throughput ratio as
 * a second figure. The agent cannot be switched off at run time, hence fresh JVMs.
 *
 * <pre>
 * example-server/overhead.sh --agent agent/target/blockscope-agent.jar --pairs 20 \
 *     --out docs/results/agent-overhead-multiget.json -- --workload multiget --threads 2 ...
 * </pre>
 */
public final class AgentOverhead {

    private static final int RESAMPLES = 10_000;
    private static final double LEVEL = 0.95;

    private AgentOverhead() {}

    public static void main(String[] args) throws Exception {
        Path serverJar = Path.of("example-server/target/blockscope-example-server.jar");
        Path agentJar = null;
        String agentOptions = "127.0.0.1:0";
        int pairs = 20;
        Path out = null;
        List<String> peArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> serverJar = Path.of(args[++i]);
                case "--agent" -> agentJar = Path.of(args[++i]);
                case "--agent-options" -> agentOptions = args[++i];
                case "--pairs" -> pairs = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--" -> {
                    peArgs.addAll(List.of(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default ->
                    throw new IllegalArgumentException("unknown option " + args[i]
                            + "; usage: --agent JAR [--server JAR] [--agent-options O] [--pairs N] [--out FILE]"
                            + " -- PE_OPTIONS");
            }
        }
        if (agentJar == null || !Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("--agent must name the built agent jar (mvn -pl agent -am package"
                    + " -DskipTests), got " + agentJar);
        }
        List<Map<String, Object>> runs = new ArrayList<>();
        double[] cpuRatios = new double[pairs];
        double[] throughputRatios = new double[pairs];
        Path scratch = Files.createTempDirectory("blockscope-overhead");
        for (int p = 0; p < pairs; p++) {
            boolean agentFirst = p % 2 == 1;
            Map<String, Object> first = run(serverJar, agentFirst ? agentJar : null, agentOptions, peArgs, scratch);
            Map<String, Object> second = run(serverJar, agentFirst ? null : agentJar, agentOptions, peArgs, scratch);
            Map<String, Object> on = agentFirst ? first : second;
            Map<String, Object> off = agentFirst ? second : first;
            cpuRatios[p] = (double) on.get("cpuNanosPerOp") / (double) off.get("cpuNanosPerOp");
            throughputRatios[p] = (double) on.get("opsPerSec") / (double) off.get("opsPerSec");
            on.put("pair", p);
            off.put("pair", p);
            runs.add(first);
            runs.add(second);
            System.err.printf(
                    "[overhead] pair %d/%d (%s first): cpu/op on/off %.4f, ops/s on/off %.4f%n",
                    p + 1, pairs, agentFirst ? "on" : "off", cpuRatios[p], throughputRatios[p]);
        }
        Bootstrap.Interval cpu = Bootstrap.medianInterval(cpuRatios, RESAMPLES, LEVEL, 20L);
        Bootstrap.Interval ops = Bootstrap.medianInterval(throughputRatios, RESAMPLES, LEVEL, 20L);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope agent-overhead");
        report.put("date", Instant.now().toString());
        report.put("jdk", Runtime.version().toString());
        report.put("machine", machine());
        report.put("command", "example-server/overhead.sh " + String.join(" ", args));
        report.put("pairs", pairs);
        report.put("cpuPerOpRatio", interval(cpu));
        report.put("throughputRatio", interval(ops));
        report.put(
                "extraCpuPerOpPercent",
                interval(new Bootstrap.Interval(
                        (cpu.median() - 1) * 100, (cpu.low() - 1) * 100, (cpu.high() - 1) * 100, LEVEL, RESAMPLES)));
        report.put("runs", runs);
        String summary = String.format(
                "[overhead] %d pairs: cpu/op on/off median %.4f, 95%% CI [%.4f, %.4f] (extra CPU %+.2f%% [%+.2f%%, %+.2f%%]);"
                        + " ops/s on/off median %.4f [%.4f, %.4f]",
                pairs,
                cpu.median(),
                cpu.low(),
                cpu.high(),
                (cpu.median() - 1) * 100,
                (cpu.low() - 1) * 100,
                (cpu.high() - 1) * 100,
                ops.median(),
                ops.low(),
                ops.high());
        System.out.println(summary);
        if (out != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), report);
            System.err.println("[overhead] wrote " + out);
        }
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

    private static Map<String, Object> interval(Bootstrap.Interval i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", i.median());
        m.put("low", i.low());
        m.put("high", i.high());
        m.put("level", i.level());
        m.put("resamples", i.resamples());
        return m;
    }

    private static String machine() {
        String cpu = System.getProperty("os.arch");
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(cpu);
        } catch (IOException e) {
            // not Linux: the architecture will do
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores, shared with other builds (load "
                + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + " at the end)";
    }
}
