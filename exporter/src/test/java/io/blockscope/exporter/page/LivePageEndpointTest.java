package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.testing.Http;
import io.blockscope.exporter.testing.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page behind the real endpoint: same auth as /metrics, its own security headers. */
class LivePageEndpointTest {

    /** The endpoint under test. */
    EndpointKind kind() {
        return EndpointKind.JETTY;
    }

    @TempDir
    Path dir;

    @Test
    void servedOverTheSameTlsAsMetrics() throws Exception {
        TestCertificates server = TestCertificates.generate(dir, "server");
        try (Exporter exporter = Exporter.start(
                ExporterConfig.parse(
                        "127.0.0.1:0",
                        Map.of(
                                "tls.keystore",
                                server.keystore().toString(),
                                "tls.keystore.password",
                                TestCertificates.PASSWORD,
                                "jfr",
                                "off")),
                kind())) {
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(server.clientContextTrustingMe(null))
                    .build();
            HttpResponse<byte[]> page = Http.get(https, URI.create("https://127.0.0.1:" + exporter.port() + "/"));
            assertEquals(200, page.statusCode());
            assertTrue(new String(page.body(), StandardCharsets.UTF_8).contains("<main id=\"live\">"));
            assertThrows(
                    IOException.class,
                    () -> Http.get(
                            HttpClient.newHttpClient(), URI.create("https://127.0.0.1:" + exporter.port() + "/")),
                    "a client that does not trust the certificate gets no page");
        }
    }

    @Test
    void pageScriptAndFragmentNeedTheScrapeCredentials() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, "s3cret".toCharArray())
                .toString();
        String auth =
                "Basic " + Base64.getEncoder().encodeToString("prometheus:s3cret".getBytes(StandardCharsets.UTF_8));
        try (Exporter exporter = Exporter.start(
                ExporterConfig.parse("127.0.0.1:0", Map.of("auth.user", "prometheus", "auth.password.hash", hash)),
                kind())) {
            String base = "http://127.0.0.1:" + exporter.port();
            for (String path :
                    new String[] {"/", "/live", "/live.js", "/runbooks", "/findings", "/findings-security"}) {
                assertEquals(401, Http.get(URI.create(base + path)).statusCode(), path);
                HttpResponse<byte[]> ok = Http.get(URI.create(base + path), "Authorization", auth);
                assertEquals(200, ok.statusCode(), path);
                assertTrue(
                        ok.headers()
                                .firstValue("Content-Security-Policy")
                                .orElse("")
                                .contains("default-src 'none'"),
                        path);
                assertEquals(
                        "nosniff",
                        ok.headers().firstValue("X-Content-Type-Options").orElse(""),
                        path);
            }
            HttpResponse<byte[]> page = Http.get(URI.create(base + "/"), "Authorization", auth);
            String html = new String(page.body(), StandardCharsets.UTF_8);
            assertTrue(
                    page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"),
                    page.headers().toString());
            assertTrue(html.contains("<main id=\"live\">") && html.contains("GC pauses"), html);
            assertEquals(
                    404,
                    Http.get(URI.create(base + "/live.css"), "Authorization", auth)
                            .statusCode());

            // The page's runbook link, resolved against the page's own address, opens a section of the
            // endpoint's runbooks: the one the alert about copies links to.
            URI link = URI.create(base + "/").resolve(PageRenderer.RUNBOOK_COPY);
            assertEquals(base + "/runbooks#blockscopehotcopypath", link.toString());
            HttpResponse<byte[]> runbooks = Http.get(link, "Authorization", auth);
            assertEquals(200, runbooks.statusCode());
            assertTrue(
                    runbooks.headers().firstValue("Content-Type").orElse("").startsWith("text/html"),
                    runbooks.headers().toString());
            assertTrue(
                    new String(runbooks.body(), StandardCharsets.UTF_8)
                            .contains("<h2 id=\"" + link.getFragment() + "\">BlockscopeHotCopyPath</h2>"),
                    "no section #" + link.getFragment());
        }
    }
}
