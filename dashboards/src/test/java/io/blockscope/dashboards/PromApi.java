package io.blockscope.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * The HTTP APIs the Thanos topology answers on, read as JSON: the Prometheus query API (a Prometheus, Thanos
 * Query with or without deduplication), the rules API (Thanos Rule) and Alertmanager's v2 alert list.
 */
public final class PromApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final String base;

    /** {@code name} for failure messages; {@code hostPort} its HTTP listener. */
    public PromApi(String name, String hostPort) {
        this.name = name;
        this.base = "http://" + hostPort;
    }

    public String name() {
        return name;
    }

    /**
     * An instant query's {@code data.result} at {@code time}. Thanos Query deduplicates on its replica label
     * unless {@code dedup} is false (a Prometheus ignores the parameter); partial responses are refused, so
     * a missing store fails the query instead of thinning its answer.
     */
    public JsonNode query(String expr, Instant time, boolean dedup) {
        return get("/api/v1/query?query=" + encode(expr) + "&time=" + time.getEpochSecond() + "&dedup=" + dedup
                        + "&partial_response=false")
                .path("data")
                .path("result");
    }

    /** An instant query, now, deduplicated. */
    public JsonNode query(String expr) {
        return query(expr, Instant.now(), true);
    }

    /** Pending and firing alerts of a Prometheus or Thanos Rule ({@code /api/v1/alerts}). */
    public JsonNode alerts() {
        return get("/api/v1/alerts").path("data").path("alerts");
    }

    /** The loaded rule groups ({@code /api/v1/rules}). */
    public JsonNode ruleGroups() {
        return get("/api/v1/rules").path("data").path("groups");
    }

    /** Alertmanager's active alerts ({@code /api/v2/alerts}): one per distinct label set, resolved ones gone. */
    public JsonNode alertmanagerAlerts() {
        return get("/api/v2/alerts?active=true&silenced=false&inhibited=false");
    }

    private JsonNode get(String pathAndQuery) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200
                    || (body.isObject() && !"success".equals(body.path("status").asText()))) {
                throw new AssertionError(
                        name + " answered " + response.statusCode() + " to " + pathAndQuery + ": " + response.body());
            }
            return body;
        } catch (IOException e) {
            throw new AssertionError("cannot ask " + name + " at " + base + pathAndQuery + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted asking " + name + " " + pathAndQuery, e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
