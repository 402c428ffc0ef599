package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Command-line uses of {@link RegionServerProcess}, run by {@code agent/hbase-rs-it/run-regionserver.sh}:
 *
 * <ul>
 *   <li>{@code serve [agent options]}: starts the standalone RegionServer with the agent, prints its
 *       ZooKeeper port, the agent's metrics URL and the pid, and keeps it running until stdin closes
 *       or Ctrl-C;
 *   <li>{@code startup N [agent options]}: starts it N times without and N times with the agent
 *       (and with a second agent jar to compare, when {@code blockscope.startup.compare} names one),
 *       interleaved, and prints each wall and CPU time to "Master has completed initialization" and
 *       the medians;
 *   <li>{@code cost --agent-switch PAIRS ...}: the agent's CPU per operation under a mixed write/read
 *       load, probes switched in one warm RegionServer ({@link MixedLoadCost});
 *   <li>{@code whole --pairs N ...}: the whole agent's CPU per operation under a steady read load, in
 *       fresh RegionServer JVMs with and without it, pair by pair ({@link WholeAgentCost}).
 * </ul>
 */
public final class RegionServerMain {

    private RegionServerMain() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "serve";
        if (mode.equals("startup")) {
            int runs = Integer.parseInt(args[1]);
            String options = args.length > 2 ? args[2] : "";
            startup(runs, options);
        } else if (mode.equals("serve")) {
            serve(args.length > 1 ? args[1] : "");
        } else if (mode.equals("cost")) {
            MixedLoadCost.run(List.of(args).subList(1, args.length));
        } else if (mode.equals("whole")) {
            WholeAgentCost.run(List.of(args).subList(1, args.length));
        } else {
            throw new IllegalArgumentException(
                    "usage: serve [agent options] | startup N [agent options] | cost [options] | whole [options]");
        }
    }

    private static void serve(String options) throws Exception {
        RegionServerProcess server = RegionServerProcess.builder()
                .jvmOptions(jvmOptions())
                .agent(options)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("regionserver.pid=" + server.pid());
        System.out.println("zookeeper.quorum=127.0.0.1:" + server.zookeeperPort());
        System.out.println("metrics=" + server.metricsUri());
        System.out.println("started.ms=" + server.startup().toMillis());
        System.out.println("running; close stdin or press Ctrl-C to stop");
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        server.close();
    }

    /**
     * Runs the arms (no agent, the built agent, and the jar named by {@code blockscope.startup.compare}
     * if set) once per round, the first arm rotating from round to round so no arm always starts on a
     * machine the previous start left warm or busy; prints every run and, per arm, the medians of
     * wall and CPU time and the median of its per-round differences to the run without the agent.
     */
    private static void startup(int runs, String options) {
        List<String> arms = new ArrayList<>(List.of("off", "agent"));
        String compare = System.getProperty("blockscope.startup.compare", "");
        if (!compare.isBlank()) {
            arms.add(compare);
        }
        Map<String, List<long[]>> results = new LinkedHashMap<>();
        arms.forEach(arm -> results.put(arm, new ArrayList<>()));
        for (int i = 0; i < runs; i++) {
            StringBuilder line = new StringBuilder("run " + (i + 1) + ":");
            for (int k = 0; k < arms.size(); k++) {
                String arm = arms.get((i + k) % arms.size());
                long[] r = once(arm, options);
                results.get(arm).add(r);
                line.append(String.format(" %s %d ms (cpu %d ms);", label(arm), r[0], r[1]));
            }
            System.out.println(line);
        }
        List<long[]> off = results.get("off");
        for (String arm : arms) {
            List<long[]> rs = results.get(arm);
            System.out.printf(
                    "median of %d, %s: wall %d ms, cpu %d ms",
                    runs, label(arm), median(rs, r -> r[0]), median(rs, r -> r[1]));
            if (!arm.equals("off")) {
                List<Long> wall = new ArrayList<>();
                List<Long> cpu = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    wall.add(rs.get(i)[0] - off.get(i)[0]);
                    cpu.add(rs.get(i)[1] - off.get(i)[1]);
                }
                System.out.printf(
                        "; adds %d ms wall, %d ms cpu (difference of medians), %d ms wall, %d ms cpu (median of"
                                + " per-round differences)",
                        median(rs, r -> r[0]) - median(off, r -> r[0]),
                        median(rs, r -> r[1]) - median(off, r -> r[1]),
                        median(wall, w -> w),
                        median(cpu, c -> c));
            }
            System.out.println();
        }
        String json = System.getProperty("blockscope.startup.json", "").trim();
        if (!json.isEmpty()) {
            writeJson(Path.of(json), runs, options, results);
        }
    }

    /**
     * The raw runs and per-arm medians as JSON (docs/results/, rendered into docs/benchmarks.md by
     * docs/results/render.py): every run's wall and CPU, and each arm's per-round differences.
     */
    private static void writeJson(Path file, int runs, String options, Map<String, List<long[]>> results) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "blockscope regionserver-startup");
        report.put("date", Instant.now().toString());
        report.put("jdk", System.getProperty("java.runtime.version")); // the servers run on this JDK too
        report.put("machine", machine());
        report.put(
                "command",
                System.getProperty(
                        "blockscope.startup.command", "run-regionserver.sh startup " + runs + " \"" + options + "\""));
        List<long[]> off = results.get("off");
        List<Map<String, Object>> arms = new ArrayList<>();
        results.forEach((arm, rs) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("arm", label(arm));
            one.put("wallMs", rs.stream().map(r -> r[0]).collect(Collectors.toList()));
            one.put("cpuMs", rs.stream().map(r -> r[1]).collect(Collectors.toList()));
            one.put("wallMedianMs", median(rs, r -> r[0]));
            one.put("cpuMedianMs", median(rs, r -> r[1]));
            if (!arm.equals("off")) {
                List<Long> wall = new ArrayList<>();
                List<Long> cpu = new ArrayList<>();
                for (int i = 0; i < rs.size(); i++) {
                    wall.add(rs.get(i)[0] - off.get(i)[0]);
                    cpu.add(rs.get(i)[1] - off.get(i)[1]);
                }
                one.put("wallAddedMs", wall);
                one.put("cpuAddedMs", cpu);
                one.put("wallAddedMedianMs", median(wall, w -> w));
                one.put("cpuAddedMedianMs", median(cpu, c -> c));
            }
            arms.add(one);
        });
        report.put("rounds", runs);
        report.put("arms", arms);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("raw results in " + file);
    }

    private static String machine() {
        return String.format(
                "%s, %d cores (load average %.1f at the end)",
                cpuModel(),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** The CPU's model name, or the architecture where /proc/cpuinfo does not say. */
    static String cpuModel() {
        String cpu = System.getProperty("os.arch");
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(cpu);
        } catch (IOException e) {
            // not Linux: the architecture will do
        }
        return cpu;
    }

    private static String label(String arm) {
        return arm.equals("off") || arm.equals("agent")
                ? arm
                : Path.of(arm).getFileName().toString();
    }

    /** Wall and CPU milliseconds from process start to "Master has completed initialization". */
    private static long[] once(String arm, String options) {
        RegionServerProcess.Builder builder = RegionServerProcess.builder().jvmOptions(jvmOptions());
        if (!arm.equals("off")) {
            builder.agent(options);
        }
        if (!arm.equals("off") && !arm.equals("agent")) {
            builder.agentJar(Path.of(arm));
        }
        try (RegionServerProcess server = builder.start()) {
            if (Boolean.getBoolean("blockscope.startup.threads")) {
                Map<String, Long> busy = new LinkedHashMap<>();
                server.startupThreadCpu().forEach((name, ms) -> {
                    if (ms >= 50) {
                        busy.put(name, ms);
                    }
                });
                System.out.println("  " + label(arm) + ": cpu ms by thread at ready (50 ms or more): " + busy);
            }
            keepLog(server, arm);
            return new long[] {
                server.startup().toMillis(),
                server.startupCpu() == null ? -1 : server.startupCpu().toMillis()
            };
        }
    }

    /** Copies the server's log into the directory {@code blockscope.startup.logs} names, if set. */
    private static void keepLog(RegionServerProcess server, String arm) {
        String dir = System.getProperty("blockscope.startup.logs", "").trim();
        if (dir.isEmpty()) {
            return;
        }
        Path file = Path.of(dir, label(arm) + "-" + server.pid() + ".log");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, server.logTail(Integer.MAX_VALUE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Extra JVM options for every server, from {@code blockscope.rs.jvmOptions} (space-separated). */
    private static List<String> jvmOptions() {
        String options = System.getProperty("blockscope.rs.jvmOptions", "").trim();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    private static <T> long median(List<T> values, ToLongFunction<T> value) {
        List<Long> sorted = new ArrayList<>();
        values.forEach(v -> sorted.add(value.applyAsLong(v)));
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
