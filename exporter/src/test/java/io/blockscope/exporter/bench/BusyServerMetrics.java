package io.blockscope.exporter.bench;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Random;

/**
 * The extra series of a busy blockscope-instrumented server, with values in them: the agent's
 * block cache, copy-to-heap, leak and bucket occupancy series at their documented label bounds,
 * and an application's request histograms and counters. About 700 series on top of the JVM's.
 */
final class BusyServerMetrics {

  private BusyServerMetrics() {}

  static void register(PrometheusRegistry registry) {
    Random random = new Random(42);
    Counter gets = Counter.builder().name("blockscope_block_cache_gets_total").help("gets")
        .labelNames("tier", "result").register(registry);
    for (String tier : new String[] {"l1", "l2"}) {
      for (String result : new String[] {"hit", "miss"}) {
        gets.labelValues(tier, result).inc(random.nextInt(1_000_000));
      }
    }
    Histogram hold = Histogram.builder().name("blockscope_block_hold_seconds").help("hold")
        .labelNames("tier").register(registry);
    Counter copies = Counter.builder().name("blockscope_copy_to_heap_total").help("copies")
        .labelNames("component").register(registry);
    Counter copyBytes = Counter.builder().name("blockscope_copy_to_heap_bytes_total").help("bytes")
        .labelNames("component").register(registry);
    for (String c : new String[] {"row", "family", "qualifier", "value", "tags", "block"}) {
      copies.labelValues(c).inc(random.nextInt(100_000));
      copyBytes.labelValues(c).inc(random.nextInt(100_000_000));
    }
    Counter siteCalls = Counter.builder().name("blockscope_copy_site_calls_total").help("calls")
        .labelNames("site").register(registry);
    Counter leaks = Counter.builder().name("blockscope_block_leaks_total").help("leaks")
        .labelNames("site", "reason").register(registry);
    for (int s = 0; s <= 20; s++) {
      String site = s == 20 ? "other" : "org.example.region.StoreScanner.next" + s + ":" + (100 + s);
      siteCalls.labelValues(site).inc(random.nextInt(10_000));
      leaks.labelValues(site, s % 2 == 0 ? "gc" : "age").inc(random.nextInt(10));
    }
    Gauge slots = Gauge.builder().name("blockscope_bucket_slots").help("slots")
        .labelNames("size_class", "state").register(registry);
    Gauge slotBytes = Gauge.builder().name("blockscope_bucket_bytes").help("bytes")
        .labelNames("size_class", "state").register(registry);
    for (int k = 1; k <= 15; k++) {
      for (String state : new String[] {"used", "free"}) {
        slots.labelValues(String.valueOf(k * 8192 + 1024), state).set(random.nextInt(10_000));
        slotBytes.labelValues(String.valueOf(k * 8192 + 1024), state).set(random.nextInt(1 << 30));
      }
    }
    Histogram requests = Histogram.builder().name("app_request_duration_seconds").help("requests")
        .labelNames("endpoint", "method", "status").register(registry);
    Counter bytesOut = Counter.builder().name("app_response_bytes_total").help("response bytes")
        .labelNames("endpoint", "method", "status").register(registry);
    for (int e = 0; e < 20; e++) {
      for (String method : new String[] {"GET", "PUT"}) {
        for (String status : new String[] {"200", "404", "500"}) {
          for (int i = 0; i < 200; i++) {
            requests.labelValues("/api/v1/endpoint" + e, method, status).observe(random.nextDouble() * random.nextDouble());
          }
          bytesOut.labelValues("/api/v1/endpoint" + e, method, status).inc(random.nextInt(1 << 20));
        }
      }
    }
    for (String tier : new String[] {"l1", "l2"}) {
      for (int i = 0; i < 1000; i++) {
        hold.labelValues(tier).observe(random.nextDouble() / 100);
      }
    }
  }
}
