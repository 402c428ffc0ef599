package io.blockscope.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.endpoint.EndpointKind;
import io.blockscope.exporter.testing.Http;
import io.blockscope.exporter.testing.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS scrapes with certificates made at test time by the running JDK's keytool, on Jetty (JDK
 * 17+); {@link TlsNettyTest} runs the same on Netty (JDK 11-16).
 */
class TlsTest {

    /** The endpoint under test. */
    EndpointKind kind() {
        return EndpointKind.JETTY;
    }

    private Exporter start(ExporterConfig config) {
        return Exporter.start(config, kind());
    }

    @TempDir
    static Path dir;

    private static TestCertificates server;
    private static TestCertificates client;

    @BeforeAll
    static void certificates() throws Exception {
        server = TestCertificates.generate(dir, "server");
        client = TestCertificates.generate(dir, "client");
    }

    private static HttpClient clientWith(SSLContext context) {
        return HttpClient.newBuilder().sslContext(context).build();
    }

    private static void assertScrapes(HttpClient https, Exporter exporter) throws Exception {
        HttpResponse<byte[]> r = Http.get(https, URI.create("https://127.0.0.1:" + exporter.port() + "/metrics"));
        assertEquals(200, r.statusCode());
        assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("blockscope_exporter_build_info"));
    }

    @Test
    void pkcs12Keystore() throws Exception {
        try (Exporter exporter = start(ExporterConfig.parse(
                "127.0.0.1:0",
                Map.of(
                        "tls.keystore",
                        server.keystore().toString(),
                        "tls.keystore.password",
                        TestCertificates.PASSWORD,
                        "jfr",
                        "off")))) {
            assertTrue(exporter.isServing());
            assertScrapes(clientWith(server.clientContextTrustingMe(null)), exporter);
            assertPlainHttpGetsNoMetrics(exporter.port());
            // A client that does not trust the certificate refuses the handshake.
            assertThrows(
                    IOException.class,
                    () -> Http.get(
                            clientWith(SSLContext.getDefault()),
                            URI.create("https://127.0.0.1:" + exporter.port() + "/metrics")));
        }
    }

    /** Plain HTTP to the TLS port: Jetty hangs up or answers with an error, never with metrics. */
    private static void assertPlainHttpGetsNoMetrics(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream()
                    .write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            byte[] answer = socket.getInputStream().readNBytes(64);
            assertFalse(new String(answer, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
        } catch (SocketTimeoutException | SocketException hungUp) {
            // as good as a refusal
        }
    }

    @Test
    void pemCertificateAndKey() throws Exception {
        try (Exporter exporter = start(ExporterConfig.parse(
                "127.0.0.1:0",
                Map.of(
                        "tls.cert",
                        server.certPem().toString(),
                        "tls.key",
                        server.keyPem().toString(),
                        "jfr",
                        "off")))) {
            assertScrapes(clientWith(server.clientContextTrustingMe(null)), exporter);
        }
    }

    @Test
    void clientCertificatesWhenRequired() throws Exception {
        try (Exporter exporter = start(ExporterConfig.parse(
                "127.0.0.1:0",
                Map.of(
                        "tls.cert",
                        server.certPem().toString(),
                        "tls.key",
                        server.keyPem().toString(),
                        "tls.client.ca",
                        client.certPem().toString(),
                        "jfr",
                        "off")))) {
            assertScrapes(clientWith(server.clientContextTrustingMe(client)), exporter);
            assertThrows(
                    IOException.class,
                    () -> Http.get(
                            clientWith(server.clientContextTrustingMe(null)),
                            URI.create("https://127.0.0.1:" + exporter.port() + "/metrics")),
                    "no client certificate, no metrics");
            assertThrows(
                    IOException.class,
                    () -> Http.get(
                            clientWith(server.clientContextTrustingMe(server)),
                            URI.create("https://127.0.0.1:" + exporter.port() + "/metrics")),
                    "an untrusted client certificate");
        }
    }
}
