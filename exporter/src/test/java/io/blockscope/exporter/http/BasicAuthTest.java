package io.blockscope.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.testing.Http;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hashed basic auth on Jetty (JDK 17+); {@link BasicAuthNettyTest} runs the same on Netty (JDK 11-16). */
class BasicAuthTest {

    /** The endpoint under test. */
    EndpointKind kind() {
        return EndpointKind.JETTY;
    }

    private Exporter start(ExporterConfig config) {
        return Exporter.start(config, kind());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void hashedPasswordGuardsMetricsButNotHealth() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, "pä55:word".toCharArray())
                .toString();
        try (Exporter exporter = start(
                ExporterConfig.parse("127.0.0.1:0", Map.of("auth.user", "prometheus", "auth.password.hash", hash)))) {
            URI metrics = URI.create("http://127.0.0.1:" + exporter.port() + "/metrics");

            HttpResponse<byte[]> anonymous = Http.get(metrics);
            assertEquals(401, anonymous.statusCode());
            assertEquals(
                    "Basic realm=\"blockscope\", charset=\"UTF-8\"",
                    anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
            assertEquals(
                    401,
                    Http.get(metrics, "Authorization", basic("prometheus", "pä55:wort"))
                            .statusCode());
            assertEquals(
                    401,
                    Http.get(metrics, "Authorization", basic("grafana", "pä55:word"))
                            .statusCode());
            assertEquals(
                    401, Http.get(metrics, "Authorization", "Basic not-base64!").statusCode());
            assertEquals(401, Http.get(metrics, "Authorization", "Bearer abc").statusCode());

            // A ':' inside the password is part of it: only the first one separates user and password.
            for (int i = 0; i < 3; i++) {
                HttpResponse<byte[]> ok = Http.get(metrics, "Authorization", basic("prometheus", "pä55:word"));
                assertEquals(200, ok.statusCode());
                assertTrue(new String(ok.body(), StandardCharsets.UTF_8).contains("blockscope_gc_source_info"));
            }
            assertEquals(
                    401,
                    Http.get(metrics, "Authorization", basic("prometheus", "pä55:wort"))
                            .statusCode(),
                    "an accepted header must not open the door for others");
            assertEquals(
                    200,
                    Http.get(URI.create("http://127.0.0.1:" + exporter.port() + "/-/healthy"))
                            .statusCode());
        }
    }

    @Test
    void saltedShaAndExplicitPlaintextWorkToo() throws Exception {
        String sha = PasswordHash.create(PasswordHash.Algorithm.SHA512, 0, "pw".toCharArray())
                .toString();
        try (Exporter hashed = start(ExporterConfig.parse(
                        "127.0.0.1:0", Map.of("auth.user", "u", "auth.password.hash", sha, "jfr", "off")));
                Exporter plain = start(ExporterConfig.parse(
                        "127.0.0.1:0",
                        Map.of("auth.user", "u", "auth.password", "pw", "auth.plaintext", "true", "jfr", "off")))) {
            for (Exporter e : new Exporter[] {hashed, plain}) {
                URI metrics = URI.create("http://127.0.0.1:" + e.port() + "/metrics");
                assertEquals(401, Http.get(metrics).statusCode());
                assertEquals(
                        401,
                        Http.get(metrics, "Authorization", basic("u", "pW")).statusCode());
                assertEquals(
                        200,
                        Http.get(metrics, "Authorization", basic("u", "pw")).statusCode());
            }
        }
    }
}
