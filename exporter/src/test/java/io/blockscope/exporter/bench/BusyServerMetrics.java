package io.blockscope.exporter.bench;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Random;

/**
 * The extra series of a busy blockscope-instrumented server, with values in them.
 *
 * <p>{@link #registerAgentSeries}: every agent series of docs/metrics.md at its documented label
 * bound (sites at 20 + other, 15 bucket size classes, ...), plus a stand-in for the GC pause
 * histogram at its bounds (3 collectors x 8 causes, native buckets filled by a spread of pause
 * times): about 280 series. {@link #registerAppSeries}: what an application sharing the registry
 * might add, 120 request-duration histograms (classic + native, widely spread values, so many native
 * buckets each) and 120 counters: the expensive case.
 */
final class BusyServerMetrics {

    private BusyServerMetrics() {}

    static void registerAgentSeries(PrometheusRegistry registry) {
        Random random = new Random(42);
        Counter gets = Counter.builder()
                .name("blockscope_block_cache_gets_total")
                .help("gets")
                .labelNames("tier", "result")
                .register(registry);
        Counter returns = Counter.builder()
                .name("blockscope_block_cache_returns_total")
                .help("returns")
                .labelNames("tier")
                .register(registry);
        Gauge outstanding = Gauge.builder()
                .name("blockscope_block_refs_outstanding")
                .help("refs")
                .labelNames("tier")
                .register(registry);
        Histogram hold = Histogram.builder()
                .name("blockscope_block_hold_seconds")
                .help("hold")
                .labelNames("tier")
                .register(registry);
        for (String tier : new String[] {"l1", "l2"}) {
            for (String result : new String[] {"hit", "miss"}) {
                gets.labelValues(tier, result).inc(random.nextInt(1_000_000));
            }
            returns.labelValues(tier).inc(random.nextInt(1_000_000));
            outstanding.labelValues(tier).set(random.nextInt(100));
            for (int i = 0; i < 5000; i++) {
                hold.labelValues(tier).observe(Math.exp(-12 + 8 * random.nextDouble()));
            }
        }
        Counter copies = Counter.builder()
                .name("blockscope_copy_to_heap_total")
                .help("copies")
                .labelNames("component")
                .register(registry);
        Counter copyBytes = Counter.builder()
                .name("blockscope_copy_to_heap_bytes_total")
                .help("bytes")
                .labelNames("component")
                .register(registry);
        for (String c : new String[] {"row", "family", "qualifier", "value", "tags", "block"}) {
            copies.labelValues(c).inc(random.nextInt(100_000));
            copyBytes.labelValues(c).inc(random.nextInt(100_000_000));
        }
        Counter siteCalls = Counter.builder()
                .name("blockscope_copy_site_calls_total")
                .help("calls")
                .labelNames("site")
                .register(registry);
        Counter siteBytes = Counter.builder()
                .name("blockscope_copy_site_bytes_total")
                .help("bytes")
                .labelNames("site")
                .register(registry);
        Counter leaks = Counter.builder()
                .name("blockscope_block_leaks_total")
                .help("leaks")
                .labelNames("site", "reason")
                .register(registry);
        for (int s = 0; s <= 20; s++) {
            String site = s == 20 ? "other" : "org.example.regionserver.StoreScanner.next" + s + ":" + (100 + s);
            siteCalls.labelValues(site).inc(random.nextInt(10_000));
            siteBytes.labelValues(site).inc(random.nextInt(10_000_000));
            for (String reason : new String[] {"gc", "age"}) {
                leaks.labelValues(site, reason).inc(random.nextInt(10));
            }
        }
        Gauge slots = Gauge.builder()
                .name("blockscope_bucket_slots")
                .help("slots")
                .labelNames("size_class", "state")
                .register(registry);
        Gauge slotBytes = Gauge.builder()
                .name("blockscope_bucket_bytes")
                .help("bytes")
                .labelNames("size_class", "state")
                .register(registry);
        for (int k = 1; k <= 15; k++) {
            for (String state : new String[] {"used", "free"}) {
                slots.labelValues(String.valueOf(k * 8192 + 1024), state).set(random.nextInt(10_000));
                slotBytes.labelValues(String.valueOf(k * 8192 + 1024), state).set(random.nextInt(1 << 30));
            }
        }
        for (String name : new String[] {"capacity", "used", "wasted"}) {
            Gauge.builder()
                    .name("blockscope_bucket_cache_" + name + "_bytes")
                    .help(name)
                    .register(registry)
                    .set(random.nextInt(1 << 30));
        }
        Counter.builder()
                .name("blockscope_bucket_cache_allocation_failures_total")
                .help("failures")
                .register(registry)
                .inc(3);
        Gauge probes = Gauge.builder()
                .name("blockscope_agent_probe_enabled")
                .help("probes")
                .labelNames("probe")
                .register(registry);
        Counter adviceErrors = Counter.builder()
                .name("blockscope_agent_advice_errors_total")
                .help("errors")
                .labelNames("probe")
                .register(registry);
        for (int p = 0; p < 10; p++) {
            probes.labelValues("probe" + p).set(1);
            adviceErrors.labelValues("probe" + p).inc(0);
        }
        Histogram pauses = Histogram.builder()
                .name("bench_gc_pause_seconds")
                .help("GC pause histogram at its label bounds")
                .labelNames("gc", "cause")
                .register(registry);
        for (String gc : new String[] {"G1New", "G1Old", "G1Full"}) {
            for (int cause = 0; cause < 8; cause++) {
                for (int i = 0; i < 500; i++) {
                    pauses.labelValues(gc, "cause " + cause).observe(Math.exp(-9 + 6 * random.nextDouble()));
                }
            }
        }
    }

    static void registerAppSeries(PrometheusRegistry registry) {
        Random random = new Random(7);
        Histogram requests = Histogram.builder()
                .name("app_request_duration_seconds")
                .help("requests")
                .labelNames("endpoint", "method", "status")
                .register(registry);
        Counter bytesOut = Counter.builder()
                .name("app_response_bytes_total")
                .help("response bytes")
                .labelNames("endpoint", "method", "status")
                .register(registry);
        for (int e = 0; e < 20; e++) {
            for (String method : new String[] {"GET", "PUT"}) {
                for (String status : new String[] {"200", "404", "500"}) {
                    for (int i = 0; i < 200; i++) {
                        requests.labelValues("/api/v1/endpoint" + e, method, status)
                                .observe(random.nextDouble() * random.nextDouble());
                    }
                    bytesOut.labelValues("/api/v1/endpoint" + e, method, status).inc(random.nextInt(1 << 20));
                }
            }
        }
    }
}
