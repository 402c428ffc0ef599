package io.blockscope.exporter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /findings} and {@code /findings-security} on a host JVM with auth on, over loopback: the
 * HBase findings pages with the anchors the live page's site links end in, behind the same
 * credentials as {@code /metrics}, and nothing else: no other file by a traversal, an encoded path or
 * a near name, no method but GET and HEAD, no raw HTML from the documents but their anchors.
 */
class FindingsRouteTest {

    @Test
    void servesBothFindingsPagesBehindAuthAndNothingElse() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, "s3cret".toCharArray())
                .toString();
        String auth = "Authorization: Basic "
                + Base64.getEncoder().encodeToString("prometheus:s3cret".getBytes(StandardCharsets.UTF_8)) + "\r\n";
        try (HostProcess host = HostProcess.start(
                Map.of(), List.of(), "auth.user=prometheus", "auth.password.hash=" + hash, "jfr=off", "threads=4")) {
            for (String path : List.of("/findings", "/findings-security")) {
                RawHttp.Answer anonymous = get(host, "GET", path, "");
                assertEquals(401, anonymous.status, anonymous.text);
                assertFalse(anonymous.text.contains("<a id="), anonymous.text);
            }

            String findings = page(get(host, "GET", "/findings", auth));
            for (String anchor : List.of(
                    "multiple-column-prefix-filter",
                    "multi-row-range-filter",
                    "fuzzy-row-filter",
                    "binary-component-comparator",
                    "big-decimal-column-interpreter",
                    "new-version-behavior-tracker",
                    "append")) {
                assertTrue(findings.contains("<a id=\"" + anchor + "\"></a>"), anchor);
                assertTrue(findings.contains("<a href=\"#" + anchor + "\">"), "the table links " + anchor);
            }
            assertTrue(findings.contains("<a href=\"findings-security\">"), "links the other page here");
            String security = page(get(host, "GET", "/findings-security", auth));
            assertTrue(security.contains("<a id=\"visibility-label-filter\"></a>"), security);
            assertTrue(security.contains("<a id=\"access-control-filter\"></a>"), security);
            assertFalse(findings.contains("<script") || security.contains("<script"), "the page has no script");

            RawHttp.Answer head = get(host, "HEAD", "/findings", auth);
            assertEquals(200, head.status, head.text);
            assertTrue(head.text.endsWith("\r\n\r\n"), "HEAD has no body");

            for (String target : List.of(
                    "/findings/../../etc/passwd",
                    "/findings/%2e%2e/%2e%2e/pom.xml",
                    "/findings%2f..%2f..%2fpom.xml",
                    "/findings/../runbooks",
                    "/findings.md",
                    "/hbase-findings.md",
                    "/findings/",
                    "/findings/hbase-findings.md",
                    "/findings-security/",
                    "/findings-security.md",
                    "/docs/hbase-findings.md",
                    "/io/blockscope/exporter/page/hbase-findings.md",
                    "/images/findings/fuzzy-row-filter.svg",
                    "/FINDINGS",
                    "/findings%00",
                    "/findings?x=../../etc/passwd#frag")) {
                RawHttp.Answer odd = get(host, "GET", target, auth);
                if (target.equals("/findings/../runbooks") && odd.status == 200) {
                    // Jetty resolves dot segments before routing: the endpoint's own runbooks, never a file.
                    assertTrue(odd.text.contains("<h2 id=\"blockscopehotcopypath\">"), odd.text);
                    continue;
                }
                if (target.startsWith("/findings?")) {
                    // The query is not part of the path (and a '#' makes the target invalid): the page
                    // itself or a refusal, never a file.
                    assertTrue(odd.status == 200 || odd.status == 400, target + ": " + odd);
                    assertFalse(odd.text.contains("root:"), target);
                    continue;
                }
                assertTrue(odd.status == 400 || odd.status == 404, target + ": " + odd);
                assertFalse(odd.text.contains("root:") || odd.text.contains("<a id="), target + ": " + odd);
            }
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
                RawHttp.Answer odd = get(host, method, "/findings", auth);
                assertEquals(405, odd.status, method + ": " + odd);
            }
            assertTrue(host.isAlive());
            assertEquals(200, get(host, "GET", "/findings-security", auth).status, "still serving");
        }
    }

    private static String page(RawHttp.Answer answer) {
        assertEquals(200, answer.status, answer.text);
        String html = new String(answer.text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        assertTrue(html.contains("Content-Type: text/html; charset=utf-8"), html.substring(0, 400));
        assertTrue(html.contains("Content-Security-Policy: default-src 'none'"), html.substring(0, 600));
        return html;
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
