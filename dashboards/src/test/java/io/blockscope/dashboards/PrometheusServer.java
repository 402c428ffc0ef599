package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real Prometheus on loopback for a test: 1 s scrape and rule evaluation, one job over the given targets,
 * the given rule files. By default it is Debian's 2.x, the job is {@code blockscope} and native histograms
 * are on; {@link Options} picks the release ({@link PrometheusVersion}), changes the job or native
 * histograms, adds target labels (a cluster label) and can make Prometheus scrape itself as job
 * {@code prometheus} (a target of another job).
 */
final class PrometheusServer implements AutoCloseable {

    static final String JOB = "blockscope";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, Path log, URI base) {
        this.process = process;
        this.log = log;
        this.base = base;
    }

    /**
     * How to run it. {@code nativeHistograms} on: what each release needs to scrape native histograms, as the
     * shipped example configs say (2.x: --enable-feature=native-histograms; 3.x: scrape_native_histograms:
     * true in the scrape config, prometheus-3.yml); either way Prometheus then negotiates protobuf and stores
     * the histograms native only. Off, it scrapes text and stores the classic series.
     */
    record Options(
            PrometheusVersion version,
            String job,
            Map<String, String> targetLabels,
            boolean nativeHistograms,
            boolean scrapeItself) {
        static Options defaults() {
            return new Options(PrometheusVersion.V2, JOB, Map.of(), true, false);
        }
    }

    static PrometheusServer start(Path workDir, List<String> targets, List<Path> ruleFiles)
            throws IOException, InterruptedException {
        return start(workDir, targets, ruleFiles, Options.defaults());
    }

    static PrometheusServer start(Path workDir, List<String> targets, List<Path> ruleFiles, Options options)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path binary = options.version().prometheus();
        // The port is free when picked; another process can bind it before Prometheus does.
        for (int attempt = 1; ; attempt++) {
            PrometheusServer server = launch(workDir, binary, freePort(), targets, ruleFiles, options);
            try {
                server.awaitReady();
            } catch (IllegalStateException e) {
                if (attempt == 3 || !server.logTail().contains("address already in use")) {
                    throw e;
                }
                continue;
            }
            String version = server.version();
            if (!version.startsWith(options.version().major() + ".")) {
                server.close();
                throw new IllegalStateException(binary + " reports version '" + version + "', not "
                        + options.version()
                        + (version.isEmpty()
                                ? " (a go install without -ldflags: build it with .ci/prometheus3.sh)"
                                : ""));
            }
            return server;
        }
    }

    private static PrometheusServer launch(
            Path workDir, Path binary, int port, List<String> targets, List<Path> ruleFiles, Options options)
            throws IOException {
        ObjectNode config = RuleFile.YAML.createObjectNode();
        config.putObject("global")
                .put("scrape_interval", "1s")
                .put("scrape_timeout", "1s")
                .put("evaluation_interval", "1s");
        ArrayNode rules = config.putArray("rule_files");
        ruleFiles.forEach(f -> rules.add(f.toAbsolutePath().toString()));
        ArrayNode scrapeConfigs = config.putArray("scrape_configs");
        ObjectNode job = scrapeConfigs.addObject();
        job.put("job_name", options.job());
        if (options.nativeHistograms() && options.version().nativeHistogramsInScrapeConfig()) {
            job.put("scrape_native_histograms", true);
        }
        ObjectNode staticConfig = job.putArray("static_configs").addObject();
        ArrayNode staticTargets = staticConfig.putArray("targets");
        targets.forEach(staticTargets::add);
        if (!options.targetLabels().isEmpty()) {
            ObjectNode labels = staticConfig.putObject("labels");
            options.targetLabels().forEach(labels::put);
        }
        if (options.scrapeItself()) {
            ObjectNode self = scrapeConfigs.addObject();
            self.put("job_name", "prometheus");
            self.putArray("static_configs").addObject().putArray("targets").add("127.0.0.1:" + port);
        }
        Path configFile = workDir.resolve("prometheus.yml");
        RuleFile.YAML.writeValue(configFile.toFile(), config);

        Path log = workDir.resolve("prometheus.log");
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--config.file=" + configFile,
                "--storage.tsdb.path=" + workDir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + port,
                "--rules.alert.resend-delay=1s",
                "--log.level=warn"));
        if (options.nativeHistograms() && !options.version().nativeHistogramsInScrapeConfig()) {
            command.add("--enable-feature=native-histograms");
        }
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new PrometheusServer(process, log, URI.create("http://127.0.0.1:" + port));
    }

    /** The release the server reports, e.g. {@code 3.16.0}. */
    String version() {
        return get("/api/v1/status/buildinfo").path("data").path("version").asText();
    }

    /** The rule groups Prometheus loaded, with each rule's health, last error and last evaluation. */
    JsonNode ruleGroups() {
        return get("/api/v1/rules").path("data").path("groups");
    }

    /** An instant query; the {@code data.result} array. */
    JsonNode query(String expr) {
        return get("/api/v1/query?query=" + encode(expr)).path("data").path("result");
    }

    /** A range query with a 1 s step; the {@code data.result} array (one entry per series). */
    JsonNode queryRange(String expr, Instant start, Instant end) {
        return get("/api/v1/query_range?query=" + encode(expr) + "&start=" + start.getEpochSecond() + "&end="
                        + end.getEpochSecond() + "&step=1")
                .path("data")
                .path("result");
    }

    /** Active alerts (pending and firing) as Prometheus reports them. */
    JsonNode alerts() {
        return get("/api/v1/alerts").path("data").path("alerts");
    }

    /** Polls {@code probe} every 500 ms until it holds; returns false at the deadline. */
    static boolean await(Duration timeout, java.util.function.BooleanSupplier probe) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (probe.getAsBoolean()) {
                return true;
            }
            Thread.sleep(500);
        }
        return probe.getAsBoolean();
    }

    /** True when some series of the result has a sample that is a number (not NaN). */
    static boolean hasNumber(JsonNode result) {
        Predicate<JsonNode> number = sample -> {
            String v = sample.path(1).asText("NaN");
            return !v.equals("NaN") && !v.isEmpty();
        };
        for (JsonNode series : result) {
            if (series.has("value") && number.test(series.path("value"))) {
                return true;
            }
            for (JsonNode sample : series.path("values")) {
                if (number.test(sample)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The last lines Prometheus logged, for failure messages. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void awaitReady() throws InterruptedException {
        boolean ready = await(Duration.ofSeconds(30), () -> {
            if (!process.isAlive()) {
                return true; // no use waiting: the check below reports it
            }
            try {
                return http.send(
                                        HttpRequest.newBuilder(base.resolve("/-/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        boolean exited = !process.isAlive();
        if (!ready || exited) {
            close();
            throw new IllegalStateException(
                    (exited ? "Prometheus exited:\n" : "Prometheus did not become ready in 30 s:\n") + logTail());
        }
    }

    private JsonNode get(String pathAndQuery) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200
                    || !"success".equals(body.path("status").asText())) {
                throw new IllegalStateException("Prometheus answered " + response.statusCode() + " to " + pathAndQuery
                        + ": " + response.body());
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot query Prometheus at " + base, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
