package io.blockscope.exporter.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.exporter.testing.ChildJvm;
import io.blockscope.exporter.testing.ExporterChild;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.Poll;
import io.blockscope.testsupport.PrometheusServer;
import io.blockscope.testsupport.PrometheusSetup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus with native histograms enabled scrapes a JVM that collects garbage five times
 * a second: the GC series arrive, the pause histogram arrives in its native form, and PromQL
 * computes a quantile from it.
 */
class PrometheusScrapeTest {

    @Test
    void prometheusStoresTheGcSeriesAndTheirNativeHistogram(@TempDir Path dir) throws Exception {
        try (ChildProcess child = ChildJvm.start(
                TestJdks.current(), List.of("-XX:+UseG1GC", "-Xmx64m"), ExporterChild.class, "child.gc-every-ms=200")) {
            String line = child.awaitLine(l -> l.startsWith("exporter "), Duration.ofSeconds(60));
            String target = "127.0.0.1:" + line.split(" ")[2];
            try (PrometheusServer prometheus =
                    PrometheusSetup.in(dir).target(target).start()) {
                Duration patience = Duration.ofSeconds(45);
                JsonNode collections =
                        prometheus.awaitResult("blockscope_gc_collections_total{gc=\"G1Full\"}", patience);
                assertTrue(collections.get(0).path("value").get(1).asDouble() > 0);
                assertEquals(
                        "jfr",
                        prometheus
                                .awaitResult("blockscope_gc_source_info", patience)
                                .get(0)
                                .path("metric")
                                .path("source")
                                .asText());
                prometheus.awaitResult("jvm_buffer_pool_used_bytes{pool=\"direct\"}", patience);

                // Stored as a native histogram: the sample carries a histogram, not a float.
                JsonNode raw = prometheus.awaitResult("blockscope_gc_pause_seconds{cause=\"System.gc()\"}", patience);
                assertTrue(raw.get(0).has("histogram"), "native histogram sample: " + raw);

                // Rates need two scrapes with pauses in between; then the quantile is a real duration.
                String p99 = "histogram_quantile(0.99, sum(rate(blockscope_gc_pause_seconds[5s])))";
                double quantile = awaitPositive(prometheus, p99, patience);
                assertTrue(quantile > 0 && quantile < 5, p99 + " = " + quantile);
                double rate = awaitPositive(
                        prometheus, "histogram_count(sum(rate(blockscope_gc_pause_seconds[5s])))", patience);
                assertTrue(rate > 1 && rate < 20, "pause rate " + rate + "/s for a GC every 200 ms");
            }
        }
    }

    private static double awaitPositive(PrometheusServer prometheus, String promql, Duration timeout) throws Exception {
        double[] value = {Double.NaN};
        boolean positive = Poll.until(timeout, () -> {
            JsonNode result = prometheus.query(promql);
            value[0] = result.isEmpty()
                    ? Double.NaN
                    : result.get(0).path("value").get(1).asDouble(Double.NaN);
            return value[0] > 0;
        });
        if (!positive) {
            throw new AssertionError(promql + " never became positive: " + value[0] + "\n" + prometheus.log());
        }
        return value[0];
    }
}
