package io.blockscope.exporter.bench;

import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.ChildProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Throughput of {@link AllocationWorkload} with the JFR collector on vs off (and with no exporter),
 * interleaved: each round runs every variant once in a fresh JVM, and the order rotates between
 * rounds so that a drifting machine load falls on every variant alike. Reports per-round figures, medians and ratios, both
 * per wall-clock second and per process CPU second (see {@link AllocationWorkload}).
 *
 * <p>Usage: {@code JfrOverheadBenchmark [ROUNDS [WARMUP_S [MEASURE_S]]]}, defaults 6, 5, 10.
 */
public final class JfrOverheadBenchmark {

    private static final List<String> JVM_ARGS =
            List.of("-XX:+UseG1GC", "-Xms512m", "-Xmx512m", "-XX:ActiveProcessorCount=2", "-XX:-TieredCompilation");

    private JfrOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        String warmup = args.length > 1 ? args[1] : "5";
        String measure = args.length > 2 ? args[2] : "10";
        String[] variants = {"mxbean", "jfr", "none"};
        Map<String, List<Double>> results = new LinkedHashMap<>();
        Map<String, List<Double>> perCpu = new LinkedHashMap<>();
        Map<String, List<Double>> perMainCpu = new LinkedHashMap<>();
        List<Double> jfrShare = new ArrayList<>();
        for (String v : variants) {
            results.put(v, new ArrayList<>());
            perCpu.put(v, new ArrayList<>());
            perMainCpu.put(v, new ArrayList<>());
        }
        for (int round = 0; round < rounds; round++) {
            // Every variant takes every position equally often (a rotation per round).
            List<String> order = new ArrayList<>(Arrays.asList(variants));
            java.util.Collections.rotate(order, round % variants.length);
            StringBuilder line = new StringBuilder("round " + (round + 1) + ":");
            for (String variant : order) {
                double[] figures = runOnce(variant, warmup, measure);
                results.get(variant).add(figures[0]);
                perCpu.get(variant).add(figures[1]);
                perMainCpu.get(variant).add(figures[2]);
                if (variant.equals("jfr")) {
                    jfrShare.add(figures[3]);
                }
                line.append(String.format(
                        " %s=%.0f/s,%.0f/cpu-s,%.0f/main-cpu-s", variant, figures[0], figures[1], figures[2]));
            }
            System.out.println(line);
        }
        report("ops per wall-clock second", results, rounds);
        report("ops per process CPU second", perCpu, rounds);
        report("ops per CPU second of the workload thread", perMainCpu, rounds);
        System.out.printf(
                "share of process CPU in JFR threads (recorder, periodic, our stream) with jfr=on: median %.3f%%%n",
                100 * median(jfrShare));
    }

    private static void report(String what, Map<String, List<Double>> results, int rounds) {
        double off = median(results.get("mxbean"));
        double on = median(results.get("jfr"));
        double none = median(results.get("none"));
        System.out.printf("%s, medians: none=%.0f jfr=off(mxbean)=%.0f jfr=on=%.0f%n", what, none, off, on);
        System.out.printf(
                "  jfr=on vs jfr=off: %+.2f%%; jfr=on vs no exporter: %+.2f%%%n",
                100 * (on / off - 1), 100 * (on / none - 1));
        List<Double> paired = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            paired.add(results.get("jfr").get(i) / results.get("mxbean").get(i));
        }
        java.util.Collections.sort(paired);
        System.out.printf("  per-round ratios jfr=on/jfr=off, sorted: %s; median %.4f%n", paired, median(paired));
    }

    /** {ops per wall-clock s, per process CPU s, per workload-thread CPU s, JFR threads' CPU share}. */
    private static double[] runOnce(String variant, String warmup, String measure) throws Exception {
        try (ChildProcess child =
                ChildJvm.start(TestJdks.current(), JVM_ARGS, AllocationWorkload.class, variant, warmup, measure)) {
            String line = child.awaitLine(
                    l -> l.startsWith("ops_per_s "),
                    Duration.ofSeconds(Long.parseLong(warmup) + Long.parseLong(measure) + 60));
            String[] parts = line.split(" ");
            return new double[] {
                Double.parseDouble(parts[1]),
                Double.parseDouble(parts[3]),
                Double.parseDouble(parts[5]),
                Double.parseDouble(parts[7])
            };
        }
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
