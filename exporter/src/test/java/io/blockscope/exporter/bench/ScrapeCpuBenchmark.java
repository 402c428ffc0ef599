package io.blockscope.exporter.bench;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.endpoint.EndpointKind;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;

/**
 * What a scrape costs the host, measured as CPU time of the exporter's own threads (the Jetty pool
 * that collects and writes), which a shared machine's load does not inflate the way it inflates
 * wall-clock time; plus wall-clock median and p99 per scrape, per format, with the metric set of
 * {@link BusyServerMetrics}. Complements the JMH {@link ScrapeBenchmark}.
 *
 * <p>Usage: {@code ScrapeCpuBenchmark [SCRAPES [agent|agent+app [JETTY|NETTY]]]} (default 500 per
 * format, after 500 warm-up scrapes, with the agent series of {@link BusyServerMetrics}, on this
 * JDK's endpoint: Jetty on 17+; NETTY measures the endpoint JDK 11-16 get).
 */
public final class ScrapeCpuBenchmark {

    private static final String[][] FORMATS = {
        {"text", "text/plain;version=0.0.4", "identity"},
        {"text+gzip", "text/plain;version=0.0.4", "gzip"},
        {"openmetrics", "application/openmetrics-text;version=1.0.0", "identity"},
        {
            "protobuf",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
            "identity"
        },
        {
            "protobuf+gzip",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
            "gzip"
        },
    };

    private ScrapeCpuBenchmark() {}

    public static void main(String[] args) throws Exception {
        int scrapes = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        boolean withApp = args.length > 1 && args[1].equals("agent+app");
        EndpointKind endpoint = args.length > 2 ? EndpointKind.valueOf(args[2]) : EndpointKind.forThisJdk();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("endpoint " + endpoint.description() + ", JDK " + Runtime.version());
        try (Exporter exporter = Exporter.start(
                ExporterConfig.builder().host("127.0.0.1").port(0).build(), endpoint)) {
            BusyServerMetrics.registerAgentSeries(exporter.registry());
            if (withApp) {
                BusyServerMetrics.registerAppSeries(exporter.registry());
            }
            System.gc();
            Thread.sleep(1500);
            HttpClient client = HttpClient.newHttpClient();
            URI metrics = URI.create("http://127.0.0.1:" + exporter.port() + "/metrics");
            for (String[] format : FORMATS) {
                HttpRequest request = HttpRequest.newBuilder(metrics)
                        .header("Accept", format[1])
                        .header("Accept-Encoding", format[2])
                        .build();
                for (int i = 0; i < 500; i++) {
                    client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                }
                long[] wall = new long[scrapes];
                long bytes = 0;
                long cpuBefore = exporterCpuNanos(threads);
                for (int i = 0; i < scrapes; i++) {
                    long t0 = System.nanoTime();
                    bytes = client.send(request, HttpResponse.BodyHandlers.ofByteArray())
                            .body()
                            .length;
                    wall[i] = System.nanoTime() - t0;
                }
                double cpuPerScrapeMs = (exporterCpuNanos(threads) - cpuBefore) / 1e6 / scrapes;
                Arrays.sort(wall);
                System.out.printf(
                        "%-14s bytes=%7d  exporter CPU/scrape=%6.2f ms  wall median=%6.2f ms p99=%6.2f ms%n",
                        format[0], bytes, cpuPerScrapeMs, wall[scrapes / 2] / 1e6, wall[scrapes * 99 / 100] / 1e6);
            }
        }
    }

    /** CPU time of the exporter's endpoint threads (Jetty's and Netty's are all named blockscope-exporter*). */
    private static long exporterCpuNanos(ThreadMXBean threads) {
        long sum = 0;
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("blockscope-exporter")) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }
}
