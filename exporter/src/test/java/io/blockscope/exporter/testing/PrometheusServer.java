package io.blockscope.exporter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real Prometheus (Debian's package, {@code /usr/bin/prometheus}) on loopback, scraping the
 * given targets every second with native histograms enabled, in a temporary data directory that
 * closing removes. Fails (never skips) when the binary is missing.
 */
public final class PrometheusServer implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What Prometheus logs when its listen address is bound already. */
    public static final String PORT_TAKEN = "address already in use";

    private final Process process;
    private final Path dir;
    private final int port;

    private PrometheusServer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Starts scraping {@code targets} ({@code host:port}) as job {@code blockscope}; returns once ready. */
    public static PrometheusServer start(List<String> targets) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: install Debian's prometheus package"
                    + " (apt-get install -y --no-install-recommends prometheus), as .ci/test does");
        }
        Path dir = Files.createTempDirectory("blockscope-prometheus");
        String targetList = targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
        Files.writeString(
                dir.resolve("prometheus.yml"),
                "global:\n"
                        + "  scrape_interval: 1s\n"
                        + "  scrape_timeout: 1s\n"
                        + "  evaluation_interval: 1s\n"
                        + "scrape_configs:\n"
                        + "  - job_name: blockscope\n"
                        + "    static_configs:\n"
                        + "      - targets: [" + targetList + "]\n");
        // The port is free when picked; another process can bind it before Prometheus does.
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            ProcessBuilder pb = new ProcessBuilder(
                    BINARY.toString(),
                    "--config.file=" + dir.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--enable-feature=native-histograms",
                    "--log.level=warn");
            pb.redirectErrorStream(true);
            pb.redirectOutput(dir.resolve("prometheus.log").toFile());
            PrometheusServer server = new PrometheusServer(pb.start(), dir, port);
            try {
                server.awaitReady(Duration.ofSeconds(30));
                return server;
            } catch (AssertionError e) {
                if (attempt == 3 || !server.log().contains(PORT_TAKEN)) {
                    throw e;
                }
            }
        }
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The {@code data.result} array of an instant query; fails on a query error. */
    public JsonNode query(String promql) throws IOException, InterruptedException {
        HttpResponse<byte[]> response =
                Http.get(uri("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200
                || !"success".equals(body.path("status").asText())) {
            throw new AssertionError(
                    "query " + promql + " failed: " + new String(response.body(), StandardCharsets.UTF_8));
        }
        return body.path("data").path("result");
    }

    /** Polls {@code promql} until it returns at least one series, or fails after {@code timeout}. */
    public JsonNode awaitResult(String promql, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode result;
        while ((result = query(promql)).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no result for " + promql + " within " + timeout
                        + "; targets: "
                        + new String(Http.get(uri("/api/v1/targets")).body(), StandardCharsets.UTF_8)
                        + "\nlog:\n" + log());
            }
            Thread.sleep(500);
        }
        return result;
    }

    public String log() throws IOException {
        Path log = dir.resolve("prometheus.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                if (Http.get(uri("/-/ready")).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        close();
        throw new AssertionError("prometheus not ready within " + timeout + ":\n" + log());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
