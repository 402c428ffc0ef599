package io.blockscope.exporter.bench;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An allocation-heavy single-threaded workload (short-lived arrays, strings, lists and maps: a
 * young collection every few hundred milliseconds) measured in a JVM with the exporter's JFR
 * collector on, off (MXBean source), or with no exporter at all.
 *
 * <p>Usage: {@code AllocationWorkload jfr|mxbean|none WARMUP_S MEASURE_S}; prints {@code ops_per_s N}.
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
      exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0",
          Map.of("jfr", variant.equals("jfr") ? "on" : "off")));
    }
    run(warmupNanos);
    long start = System.nanoTime();
    long ops = run(measureNanos);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("ops_per_s %.1f%n", ops / seconds);
    if (exporter != null) {
      exporter.close();
    }
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
  private static long operation(long seed) {
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
