package io.blockscope.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.testing.Http;
import io.blockscope.testsupport.Scrape;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many scrapers at once, in all formats, while the JVM collects garbage; on Jetty here, on Netty
 * in {@link ConcurrentScrapeNettyTest}.
 */
class ConcurrentScrapeTest {

    /** The endpoint under test. */
    EndpointKind kind() {
        return EndpointKind.JETTY;
    }

    private static final int SCRAPERS = 6;
    private static final int SCRAPES_EACH = 25;
    private static final int FORCED_GCS = 10;
    private static final String[] ACCEPTS = {
        "text/plain;version=0.0.4",
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
        "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
    };

    @Test
    void everyScrapeSucceedsAndCountersNeverGoBack() throws Exception {
        // threads=2 is the smallest pool: 6 scrapers queue on it rather than fail.
        try (Exporter exporter = Exporter.start(
                ExporterConfig.builder().host("127.0.0.1").port(0).threads(2).build(), kind())) {
            URI metrics = URI.create("http://127.0.0.1:" + exporter.port() + "/metrics");
            double pausesBefore = Scrape.of(exporter.port()).sum("blockscope_gc_pause_seconds_count");
            ExecutorService pool = Executors.newFixedThreadPool(SCRAPERS + 1);
            try {
                Future<?> collector = pool.submit(() -> {
                    for (int i = 0; i < FORCED_GCS; i++) {
                        byte[][] garbage = new byte[256][];
                        for (int j = 0; j < garbage.length; j++) {
                            garbage[j] = new byte[16 * 1024];
                        }
                        System.gc();
                        Thread.sleep(100);
                    }
                    return null;
                });
                List<Future<Integer>> scrapers = new ArrayList<>();
                for (int s = 0; s < SCRAPERS; s++) {
                    int scraper = s;
                    scrapers.add(pool.submit(() -> {
                        double lastPauses = -1;
                        for (int i = 0; i < SCRAPES_EACH; i++) {
                            String accept = ACCEPTS[(scraper + i) % ACCEPTS.length];
                            HttpResponse<byte[]> r = Http.get(
                                    metrics, "Accept", accept, "Accept-Encoding", i % 2 == 0 ? "gzip" : "identity");
                            assertEquals(200, r.statusCode(), accept);
                            assertTrue(r.body().length > 0, accept);
                            if (accept.startsWith("text/plain") && i % 2 == 1) {
                                double pauses = Scrape.parse(new String(r.body(), StandardCharsets.UTF_8))
                                        .sum("blockscope_gc_pause_seconds_count");
                                assertTrue(
                                        pauses >= lastPauses,
                                        "pause count went back from " + lastPauses + " to " + pauses);
                                lastPauses = pauses;
                            }
                        }
                        return SCRAPES_EACH;
                    }));
                }
                collector.get(60, TimeUnit.SECONDS);
                int total = 0;
                for (Future<Integer> f : scrapers) {
                    total += f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(SCRAPERS * SCRAPES_EACH, total);
            } finally {
                pool.shutdownNow();
            }
            // Every forced collection is eventually there, next to the scrapes' own timing.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Scrape after;
            do {
                Thread.sleep(300);
                after = Scrape.of(exporter.port());
            } while (after.sum("blockscope_gc_pause_seconds_count") < pausesBefore + FORCED_GCS
                    && System.nanoTime() < deadline);
            assertTrue(after.sum("blockscope_gc_pause_seconds_count") >= pausesBefore + FORCED_GCS);
            assertTrue(after.sum("blockscope_scrape_duration_seconds_count") >= SCRAPERS * SCRAPES_EACH);
        }
    }
}
