package io.blockscope.exporter.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.self.SelfMetrics;
import io.blockscope.exporter.testing.ForcedGc;
import io.blockscope.exporter.testing.Http;
import io.blockscope.testsupport.Scrape;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_1.Metrics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real HTTP scrapes of an exporter in this JVM, in each exposition format, on Jetty (the endpoint
 * on JDK 17+); {@link EndpointNettyTest} runs the same on the Netty endpoint of JDK 11-16.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndpointTest {

    private static final String PROTOBUF_ACCEPT =
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,"
                    + "text/plain;version=0.0.4;q=0.3";
    private Exporter exporter;

    /** The endpoint under test. */
    EndpointKind kind() {
        return EndpointKind.JETTY;
    }

    private Exporter start(ExporterConfig config) {
        return Exporter.start(config, kind());
    }

    @BeforeAll
    void start() throws Exception {
        exporter = start(ExporterConfig.builder().host("127.0.0.1").port(0).build());
        assertTrue(exporter.isServing());
        // At least one pause in the histogram, so every format has a GC histogram to show.
        ForcedGc.until(
                () -> Scrape.of(exporter.port()).sum("blockscope_gc_pause_seconds_count") > 0,
                "no GC pause reached the exporter",
                Duration.ofSeconds(20));
    }

    @AfterAll
    void stop() {
        exporter.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + exporter.port() + path);
    }

    @Test
    void textFormatByDefault() throws Exception {
        HttpResponse<byte[]> r = Http.get(uri("/metrics"));
        assertEquals(200, r.statusCode());
        assertEquals(
                "text/plain; version=0.0.4; charset=utf-8",
                r.headers().firstValue("Content-Type").orElse(""));
        Scrape samples = Scrape.parse(new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(1, samples.sum("blockscope_gc_source_info", Scrape.label("source", "jfr")));
        assertTrue(samples.has("jvm_memory_used_bytes"), "standard JVM metrics are registered");
        assertEquals(
                1,
                samples.matching("jvm_buffer_pool_used_bytes", Scrape.label("pool", "direct"))
                        .size(),
                "the direct buffer pool (where offheap caches live) is exported");
        assertTrue(samples.has("blockscope_gc_pause_seconds_bucket"), "classic buckets in text format");
        Scrape.Sample build = samples.matching("blockscope_exporter_build_info").get(0);
        assertEquals(SelfMetrics.version(), build.labels().get("version"));
        assertTrue(
                build.labels().get("version").matches("\\d+\\.\\d+\\.\\d+.*"), "filtered version: " + build.labels());
        assertEquals(System.getProperty("java.runtime.version"), build.labels().get("jdk"));
    }

    @Test
    void openMetricsWhenAsked() throws Exception {
        HttpResponse<byte[]> r =
                Http.get(uri("/metrics"), "Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers()
                .firstValue("Content-Type")
                .orElse("")
                .startsWith("application/openmetrics-text; version=1.0.0"));
        String body = new String(r.body(), StandardCharsets.UTF_8);
        assertTrue(body.endsWith("# EOF\n"), "OpenMetrics ends with # EOF");
        assertTrue(body.contains("# TYPE blockscope_gc_source info"), "info type in OpenMetrics");
        assertTrue(body.contains("# UNIT blockscope_gc_pause_seconds seconds"));
    }

    @Test
    void protobufCarriesTheNativeHistogram() throws Exception {
        HttpResponse<byte[]> r = Http.get(uri("/metrics"), "Accept", PROTOBUF_ACCEPT);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/vnd.google.protobuf"));
        Map<String, Metrics.MetricFamily> families = families(r.body());
        Metrics.MetricFamily pauses = families.get("blockscope_gc_pause_seconds");
        assertEquals(Metrics.MetricType.HISTOGRAM, pauses.getType());
        Metrics.Histogram histogram = pauses.getMetric(0).getHistogram();
        assertTrue(histogram.getSampleCount() > 0);
        assertTrue(histogram.getPositiveSpanCount() > 0, "native buckets present: " + histogram);
        assertTrue(histogram.getSchema() <= 8, "native schema set: " + histogram.getSchema());
        assertTrue(histogram.getBucketCount() > 0, "classic buckets kept alongside");
        assertEquals(
                Metrics.MetricType.COUNTER,
                families.get("blockscope_gc_collections_total").getType());
    }

    private static Map<String, Metrics.MetricFamily> families(byte[] delimited) throws IOException {
        Map<String, Metrics.MetricFamily> families = new HashMap<>();
        try (InputStream in = new ByteArrayInputStream(delimited)) {
            Metrics.MetricFamily family;
            while ((family = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
                families.put(family.getName(), family);
            }
        }
        return families;
    }

    @Test
    void gzipWhenAccepted() throws Exception {
        HttpResponse<byte[]> r = Http.get(uri("/metrics?name[]=blockscope_gc_source_info"), "Accept-Encoding", "gzip");
        assertEquals(200, r.statusCode());
        assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElse(""));
        byte[] plain;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
            plain = in.readAllBytes();
        }
        String text = new String(plain, StandardCharsets.UTF_8);
        assertTrue(text.contains("blockscope_gc_source_info{source=\"jfr\"} 1"), text);
        assertFalse(text.contains("jvm_"), "name[] filters the scrape: " + text);
    }

    @Test
    void compressionFollowsAcceptEncoding() throws Exception {
        HttpResponse<byte[]> plain = Http.get(uri("/metrics"), "Accept-Encoding", "gzip;q=0, identity");
        assertFalse(plain.headers().firstValue("Content-Encoding").isPresent());
        assertEquals(
                String.valueOf(plain.body().length),
                plain.headers().firstValue("Content-Length").orElse(""));
        assertEquals("Accept-Encoding", plain.headers().firstValue("Vary").orElse(""));

        HttpResponse<byte[]> gzipped =
                Http.get(uri("/metrics"), "Accept", PROTOBUF_ACCEPT, "Accept-Encoding", "deflate, GZIP");
        assertEquals("gzip", gzipped.headers().firstValue("Content-Encoding").orElse(""));
        byte[] protobuf;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            protobuf = in.readAllBytes();
        }
        assertTrue(
                protobuf.length > 2 * gzipped.body().length,
                "compressed: " + gzipped.body().length + " of " + protobuf.length);
        assertTrue(families(protobuf).containsKey("blockscope_gc_pause_seconds"));
    }

    @Test
    void debugParameterShowsProtobufAsText() throws Exception {
        HttpResponse<byte[]> r = Http.get(uri("/metrics?debug=prometheus-protobuf"));
        assertEquals(200, r.statusCode());
        String text = new String(r.body(), StandardCharsets.UTF_8);
        assertTrue(text.contains("blockscope_gc_pause_seconds") && text.contains("positive_span"), text);
    }

    @Test
    void healthIndexAndErrors() throws Exception {
        HttpResponse<byte[]> healthy = Http.get(uri("/-/healthy"));
        assertEquals(200, healthy.statusCode());
        assertEquals("Exporter is healthy.\n", new String(healthy.body(), StandardCharsets.UTF_8));
        assertEquals(200, Http.get(uri("/")).statusCode());
        assertEquals(404, Http.get(uri("/metricz")).statusCode());
        assertFalse(Http.get(uri("/metricz")).headers().firstValue("Server").isPresent(), "no server version");

        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> post = client.send(
                HttpRequest.newBuilder(uri("/metrics"))
                        .POST(HttpRequest.BodyPublishers.ofString("x"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
        HttpResponse<byte[]> head = client.send(
                HttpRequest.newBuilder(uri("/metrics"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, head.statusCode());
        assertArrayEquals(new byte[0], head.body());
    }

    @Test
    void scrapesAreTimed() throws Exception {
        double before = Scrape.of(exporter.port()).sum("blockscope_scrape_duration_seconds_count");
        Scrape.of(exporter.port());
        Scrape after = Scrape.of(exporter.port());
        assertEquals(before + 2, after.sum("blockscope_scrape_duration_seconds_count"));
        assertTrue(after.sum("blockscope_scrape_duration_seconds_sum") > 0);
    }
}
