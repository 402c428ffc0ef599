package io.blockscope.hbasers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.exporter.testing.PrometheusServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Prometheus (installed by .ci/test) on loopback: 1 s scrapes and rule evaluations, native
 * histograms on, one job {@value #JOB} scraping the RegionServer's agent, the shipped rule files loaded.
 * Same setup as the dashboards module's end-to-end tests.
 */
final class Prometheus implements AutoCloseable {

    static final String JOB = "blockscope-hbase";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final URI base;

    private Prometheus(Process process, Path log, URI base) {
        this.process = process;
        this.log = log;
        this.base = base;
    }

    /** The shipped rule files: dashboards/recording-rules.yml and dashboards/alerts.yml. */
    static List<Path> shippedRules() {
        Path dashboards = Path.of(RegionServerProcess.required("blockscope.dashboards"));
        return List.of(dashboards.resolve("recording-rules.yml"), dashboards.resolve("alerts.yml"));
    }

    static Path binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "prometheus");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("prometheus not found on PATH: install Debian's prometheus package"
                + " (apt-get install prometheus; .ci/test does it)");
    }

    static Prometheus start(Path dir, String target, List<Path> ruleFiles) throws IOException {
        StringBuilder config = new StringBuilder()
                .append("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n")
                .append("rule_files:\n");
        for (Path rules : ruleFiles) {
            config.append("  - ").append(rules.toAbsolutePath()).append('\n');
        }
        config.append("scrape_configs:\n  - job_name: ")
                .append(JOB)
                .append("\n    static_configs:\n      - targets: ['")
                .append(target)
                .append("']\n");
        Files.createDirectories(dir);
        Path configFile = dir.resolve("prometheus.yml");
        Files.writeString(configFile, config);
        return launch(dir, configFile, List.of("--enable-feature=native-histograms"));
    }

    /**
     * Prometheus on loopback with a configuration file of the caller's, as an operator runs it: no
     * feature flag, and {@code --web.enable-lifecycle} so that {@code POST /-/reload} reloads the file.
     */
    static Prometheus startWithConfig(Path dir, Path configFile) throws IOException {
        Files.createDirectories(dir);
        return launch(dir, configFile, List.of("--web.enable-lifecycle"));
    }

    private static Prometheus launch(Path dir, Path configFile, List<String> flags) throws IOException {
        Path log = dir.resolve("prometheus.log");
        // The port is free when picked; another process can bind it before Prometheus does.
        attempts:
        for (int attempt = 1; ; attempt++) {
            int port = RegionServerProcess.freePort();
            List<String> command = new ArrayList<>(List.of(
                    binary().toString(),
                    "--config.file=" + configFile,
                    "--storage.tsdb.path=" + dir.resolve("tsdb"),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--log.level=warn"));
            command.addAll(flags);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Prometheus prometheus = new Prometheus(process, log, URI.create("http://127.0.0.1:" + port));
            Instant deadline = Instant.now().plusSeconds(30);
            while (!prometheus.ready()) {
                if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                    prometheus.close();
                    if (attempt < 3 && prometheus.logText().contains(PrometheusServer.PORT_TAKEN)) {
                        continue attempts;
                    }
                    throw new AssertionError("Prometheus did not start; its log:\n" + prometheus.logText());
                }
                RegionServerProcess.sleep(200);
            }
            return prometheus;
        }
    }

    /** host:port of its HTTP API. */
    String address() {
        return base.getAuthority();
    }

    private boolean ready() {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(base.resolve("/-/ready")).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** An instant query's {@code data.result}. */
    JsonNode query(String expr) {
        return get("/api/v1/query?query=" + encode(expr)).path("data").path("result");
    }

    /** A range query's {@code data.result} with the given step. */
    JsonNode queryRange(String expr, Instant start, Instant end, Duration step) {
        return get("/api/v1/query_range?query=" + encode(expr) + "&start=" + start.getEpochSecond() + "&end="
                        + end.getEpochSecond() + "&step=" + step.toSeconds())
                .path("data")
                .path("result");
    }

    /** The loaded rule groups ({@code /api/v1/rules}), with each rule's health and labels. */
    JsonNode ruleGroups() {
        return get("/api/v1/rules").path("data").path("groups");
    }

    /** Pending and firing alerts. */
    JsonNode alerts() {
        return get("/api/v1/alerts").path("data").path("alerts");
    }

    /** The query of the loaded alerting rule {@code name}. */
    String alertExpression(String name) {
        for (JsonNode group : get("/api/v1/rules").path("data").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (name.equals(rule.path("name").asText())) {
                    return rule.path("query").asText();
                }
            }
        }
        throw new AssertionError("no rule " + name + " is loaded");
    }

    private JsonNode get(String path) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("Prometheus " + path + ": " + e + "\n" + logText(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
