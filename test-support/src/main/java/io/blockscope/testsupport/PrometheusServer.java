package io.blockscope.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus on loopback for a test, started from a {@link PrometheusSetup}, with its HTTP API:
 * instant and range queries, rules and alerts. Closing it stops the process; its data stays in the
 * setup's folder (a test's temporary directory).
 */
public final class PrometheusServer implements AutoCloseable {

    /** What Prometheus logs when its listen address is bound already. */
    public static final String PORT_TAKEN = "address already in use";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path log;
    private final URI base;

    private PrometheusServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    /** Starts Prometheus as {@code setup} says and returns once it is ready (and of the expected release). */
    static PrometheusServer start(PrometheusSetup setup) throws IOException, InterruptedException {
        // The port is free when picked; another process can bind it before Prometheus does.
        for (int attempt = 1; ; attempt++) {
            int port = FreePort.pick();
            List<String> command = setup.command(port);
            Path log = setup.dir().resolve("prometheus.log");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            PrometheusServer server = new PrometheusServer(process, log, port);
            if (!server.awaitReady()) {
                server.close();
                if (attempt < 3 && server.log().contains(PORT_TAKEN)) {
                    continue;
                }
                throw new AssertionError((process.isAlive()
                                ? "Prometheus not ready in " + READY_TIMEOUT.toSeconds()
                                : "Prometheus exited (" + process.exitValue() + ")")
                        + "; " + String.join(" ", command) + "\nits log:\n" + server.log());
            }
            setup.checkVersion(server);
            return server;
        }
    }

    /** The URI of {@code path} on its HTTP API. */
    public URI uri(String path) {
        return base.resolve(path);
    }

    /** host:port of its HTTP API. */
    public String address() {
        return base.getAuthority();
    }

    /** The release the server reports, e.g. {@code 2.42.0}. */
    public String version() {
        return get("/api/v1/status/buildinfo").path("data").path("version").asText();
    }

    /** An instant query's {@code data.result}; fails on a query error. */
    public JsonNode query(String expr) {
        return get("/api/v1/query?query=" + encode(expr)).path("data").path("result");
    }

    /** A range query's {@code data.result} (one entry per series) with the given step. */
    public JsonNode queryRange(String expr, Instant start, Instant end, Duration step) {
        return get("/api/v1/query_range?query=" + encode(expr) + "&start=" + start.getEpochSecond() + "&end="
                        + end.getEpochSecond() + "&step=" + step.toSeconds())
                .path("data")
                .path("result");
    }

    /** Polls {@code expr} until it returns at least one series; fails after {@code timeout} with the targets. */
    public JsonNode awaitResult(String expr, Duration timeout) throws InterruptedException {
        JsonNode[] result = new JsonNode[1];
        if (!Poll.until(timeout, () -> !(result[0] = query(expr)).isEmpty())) {
            throw new AssertionError("no result for " + expr + " within " + timeout + "; targets: "
                    + get("/api/v1/targets") + "\nlog:\n" + log());
        }
        return result[0];
    }

    /** The loaded rule groups ({@code /api/v1/rules}), each rule with its health, last error and labels. */
    public JsonNode ruleGroups() {
        return get("/api/v1/rules").path("data").path("groups");
    }

    /** Pending and firing alerts. */
    public JsonNode alerts() {
        return get("/api/v1/alerts").path("data").path("alerts");
    }

    /** The query of the loaded alerting rule {@code name}. */
    public String alertExpression(String name) {
        for (JsonNode group : ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                if (name.equals(rule.path("name").asText())) {
                    return rule.path("query").asText();
                }
            }
        }
        throw new AssertionError("no rule " + name + " is loaded");
    }

    /** True when some series of a query result has a sample that is a number (not NaN). */
    public static boolean hasNumber(JsonNode result) {
        for (JsonNode series : result) {
            if (series.has("value") && isNumber(series.path("value"))) {
                return true;
            }
            for (JsonNode sample : series.path("values")) {
                if (isNumber(sample)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Everything Prometheus logged. */
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The last 30 lines Prometheus logged, for failure messages. */
    public String logTail() {
        List<String> lines = log().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
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

    private boolean awaitReady() throws InterruptedException {
        Poll.until(READY_TIMEOUT, Duration.ofMillis(200), () -> !process.isAlive() || ready());
        return process.isAlive() && ready();
    }

    private boolean ready() {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri("/-/ready")).build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private JsonNode get(String pathAndQuery) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200
                    || !"success".equals(body.path("status").asText())) {
                throw new AssertionError("Prometheus answered " + response.statusCode() + " to " + pathAndQuery + ": "
                        + response.body());
            }
            return body;
        } catch (IOException e) {
            throw new AssertionError(
                    "cannot ask Prometheus at " + base + pathAndQuery + ": " + e + "\n" + logTail(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted asking Prometheus " + pathAndQuery, e);
        }
    }

    private static boolean isNumber(JsonNode sample) {
        String v = sample.path(1).asText("NaN");
        return !v.equals("NaN") && !v.isEmpty();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
