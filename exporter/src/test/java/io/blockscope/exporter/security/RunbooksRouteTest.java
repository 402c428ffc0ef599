package io.blockscope.exporter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /runbooks} on a host JVM with auth on, over loopback: the runbooks with every anchor the
 * shipped alerts link to, behind the same credentials as {@code /metrics}, and nothing else: no file
 * by a traversal or an encoded path, no method but GET and HEAD.
 */
class RunbooksRouteTest {

    private static final Pattern RUNBOOK_URL = Pattern.compile("runbook_url: \"[^\"#]*/runbooks#([a-z0-9-]+)\"");

    @Test
    void servesEveryAlertsSectionBehindAuthAndNothingElse() throws Exception {
        Set<String> anchors = new LinkedHashSet<>();
        for (String rules : List.of("alerts.yml", "k8s/prometheusrule.yaml")) {
            Matcher m = RUNBOOK_URL.matcher(Files.readString(Path.of("..", "dashboards", rules)));
            while (m.find()) {
                anchors.add(m.group(1));
            }
        }
        assertTrue(anchors.size() >= 16, "the shipped alerts link the agent's /runbooks: " + anchors);

        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, "s3cret".toCharArray())
                .toString();
        String auth = "Authorization: Basic "
                + Base64.getEncoder().encodeToString("prometheus:s3cret".getBytes(StandardCharsets.UTF_8)) + "\r\n";
        try (HostProcess host = HostProcess.start(
                Map.of(), List.of(), "auth.user=prometheus", "auth.password.hash=" + hash, "jfr=off", "threads=4")) {
            RawHttp.Answer anonymous = get(host, "GET", "/runbooks", "");
            assertEquals(401, anonymous.status, anonymous.text);
            assertFalse(anonymous.text.contains("BlockscopeHotCopyPath"), anonymous.text);
            RawHttp.Answer wrong = get(host, "GET", "/runbooks", "Authorization: Basic cHJvbWV0aGV1czp4\r\n");
            assertEquals(401, wrong.status, wrong.text);

            RawHttp.Answer page = get(host, "GET", "/runbooks", auth);
            assertEquals(200, page.status, page.text);
            String html = new String(page.text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
            assertTrue(html.contains("Content-Type: text/html; charset=utf-8"), html.substring(0, 400));
            assertTrue(html.contains("Content-Security-Policy: default-src 'none'"), html.substring(0, 600));
            List<String> missing = new ArrayList<>();
            for (String anchor : anchors) {
                if (!html.contains("<h2 id=\"" + anchor + "\">")) {
                    missing.add(anchor);
                }
            }
            assertEquals(List.of(), missing, "sections the alerts link to that /runbooks lacks");

            RawHttp.Answer head = get(host, "HEAD", "/runbooks", auth);
            assertEquals(200, head.status, head.text);
            assertTrue(head.text.endsWith("\r\n\r\n"), "HEAD has no body");

            for (String target : List.of(
                    "/runbooks/../../etc/passwd",
                    "/runbooks/%2e%2e/%2e%2e/pom.xml",
                    "/runbooks%2f..%2f..%2fpom.xml",
                    "/..%5c..%5cetc%5cpasswd",
                    "/runbooks.md",
                    "/runbooks/",
                    "/runbooks/runbooks.md",
                    "/docs/runbooks.md",
                    "/io/blockscope/exporter/page/runbooks.md",
                    "/RUNBOOKS",
                    "/runbooks%00")) {
                RawHttp.Answer odd = get(host, "GET", target, auth);
                assertTrue(odd.status == 400 || odd.status == 404, target + ": " + odd);
                assertFalse(odd.text.contains("root:") || odd.text.contains("<h2 id="), target + ": " + odd);
            }
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
                RawHttp.Answer odd = get(host, method, "/runbooks", auth);
                assertEquals(405, odd.status, method + ": " + odd);
                assertTrue(odd.text.contains("Allow: GET, HEAD"), method + ": " + odd);
            }
            assertTrue(host.isAlive());
            assertEquals(200, get(host, "GET", "/runbooks", auth).status, "still serving");
        }
    }

    private static RawHttp.Answer get(HostProcess host, String method, String target, String headers) throws Exception {
        String request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
                + (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
                        ? "Content-Length: 0\r\n"
                        : "")
                + "Connection: close\r\n\r\n";
        return RawHttp.send(null, host.port(), RawHttp.bytes(request), 10_000);
    }
}
