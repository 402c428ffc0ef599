package io.blockscope.exporter.bench;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scrape time of an exporter holding the JVM and GC series plus {@link BusyServerMetrics}
 * (parameter {@code metricSet}): end to end over loopback HTTP per format, and the server-side
 * collect-and-write alone. Prints the response sizes once per fork. Sample-time mode reports the
 * median per scrape, which a shared machine disturbs far less than the mean.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx512m"})
@State(Scope.Benchmark)
public class ScrapeBenchmark {

    private static final String TEXT = "text/plain;version=0.0.4";
    private static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0";
    private static final String PROTOBUF =
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

    /** The documented agent series at their bounds, or those plus an application's histograms. */
    @Param({"agent", "agent+app"})
    public String metricSet;

    private Exporter exporter;
    private HttpClient client;
    private URI metrics;
    private ExpositionFormats formats;

    @Setup(Level.Trial)
    public void start() throws Exception {
        exporter = Exporter.start(
                ExporterConfig.builder().host("127.0.0.1").port(0).build());
        BusyServerMetrics.registerAgentSeries(exporter.registry());
        if (metricSet.equals("agent+app")) {
            BusyServerMetrics.registerAppSeries(exporter.registry());
        }
        System.gc(); // GC series with data
        Thread.sleep(1500);
        formats = ExpositionFormats.init(PrometheusProperties.builder().build());
        client = HttpClient.newHttpClient();
        metrics = URI.create("http://127.0.0.1:" + exporter.port() + "/metrics");
        long series = new String(get(TEXT, "identity"), java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.startsWith("#"))
                .count();
        System.out.printf(
                "%n[%s] response bytes: text=%d openmetrics=%d protobuf=%d text+gzip=%d protobuf+gzip=%d; text samples=%d%n",
                metricSet,
                get(TEXT, "identity").length,
                get(OPENMETRICS, "identity").length,
                get(PROTOBUF, "identity").length,
                get(TEXT, "gzip").length,
                get(PROTOBUF, "gzip").length,
                series);
    }

    @TearDown(Level.Trial)
    public void stop() {
        exporter.close();
    }

    private byte[] get(String accept, String encoding) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(metrics)
                .header("Accept", accept)
                .header("Accept-Encoding", encoding)
                .build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("scrape answered " + response.statusCode());
        }
        return response.body();
    }

    /** Server-side cost alone: collect every metric and write the text format, no HTTP. */
    @Benchmark
    public int collectAndWriteText() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 * 1024);
        formats.getPrometheusTextFormatWriter().write(out, exporter.registry().scrape());
        return out.size();
    }

    /** The same for protobuf, the format a native-histogram Prometheus asks for. */
    @Benchmark
    public int collectAndWriteProtobuf() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 * 1024);
        formats.getPrometheusProtobufWriter().write(out, exporter.registry().scrape());
        return out.size();
    }

    @Benchmark
    public byte[] text() throws Exception {
        return get(TEXT, "identity");
    }

    @Benchmark
    public byte[] textGzip() throws Exception {
        return get(TEXT, "gzip");
    }

    @Benchmark
    public byte[] openMetrics() throws Exception {
        return get(OPENMETRICS, "identity");
    }

    @Benchmark
    public byte[] protobuf() throws Exception {
        return get(PROTOBUF, "identity");
    }

    @Benchmark
    public byte[] protobufGzip() throws Exception {
        return get(PROTOBUF, "gzip");
    }
}
