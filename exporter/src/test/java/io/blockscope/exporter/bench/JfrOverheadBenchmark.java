package io.blockscope.exporter.bench;

import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.Jdks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Throughput of {@link AllocationWorkload} with the JFR collector on vs off, interleaved: each
 * round runs every variant once in a fresh JVM, and the order alternates between rounds so that a
 * drifting machine load falls on both sides. Reports per-round figures, medians and the ratio.
 *
 * <p>Usage: {@code JfrOverheadBenchmark [ROUNDS [WARMUP_S [MEASURE_S]]]}, defaults 6, 5, 10.
 */
public final class JfrOverheadBenchmark {

  private static final List<String> JVM_ARGS = List.of("-XX:+UseG1GC", "-Xms512m", "-Xmx512m",
      "-XX:ActiveProcessorCount=2", "-XX:-TieredCompilation");

  private JfrOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
    String warmup = args.length > 1 ? args[1] : "5";
    String measure = args.length > 2 ? args[2] : "10";
    String[] variants = {"mxbean", "jfr", "none"};
    Map<String, List<Double>> results = new LinkedHashMap<>();
    for (String v : variants) {
      results.put(v, new ArrayList<>());
    }
    for (int round = 0; round < rounds; round++) {
      List<String> order = new ArrayList<>(Arrays.asList(variants));
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      StringBuilder line = new StringBuilder("round " + (round + 1) + ":");
      for (String variant : order) {
        double opsPerSecond = runOnce(variant, warmup, measure);
        results.get(variant).add(opsPerSecond);
        line.append(String.format(" %s=%.0f", variant, opsPerSecond));
      }
      System.out.println(line);
    }
    double off = median(results.get("mxbean"));
    double on = median(results.get("jfr"));
    double none = median(results.get("none"));
    System.out.printf("median ops/s: none=%.0f jfr=off(mxbean)=%.0f jfr=on=%.0f%n", none, off, on);
    System.out.printf("jfr=on vs jfr=off: %+.2f%%; jfr=on vs no exporter: %+.2f%%%n",
        100 * (on / off - 1), 100 * (on / none - 1));
    List<Double> paired = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      paired.add(results.get("jfr").get(i) / results.get("mxbean").get(i));
    }
    System.out.printf("median of per-round ratios jfr=on/jfr=off: %.4f (%s)%n", median(paired), paired);
  }

  private static double runOnce(String variant, String warmup, String measure) throws Exception {
    try (ChildJvm child = ChildJvm.start(Jdks.current(), JVM_ARGS, AllocationWorkload.class, variant, warmup, measure)) {
      String line = child.awaitLine(l -> l.startsWith("ops_per_s "),
          Duration.ofSeconds(Long.parseLong(warmup) + Long.parseLong(measure) + 60));
      return Double.parseDouble(line.substring("ops_per_s ".length()));
    }
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
