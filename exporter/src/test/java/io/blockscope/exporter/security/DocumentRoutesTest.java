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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The documents the endpoint serves ({@code /runbooks}, {@code /findings}, {@code /findings-security},
 * {@code /findings-leaks})
 * on one host JVM with auth on, over loopback: each with the anchors its links end in (the shipped
 * alerts' runbook_url, the live page's site links), behind the same credentials as {@code /metrics},
 * and nothing else: no other file by a traversal, an encoded path, a near name or another extension, no
 * method but GET and HEAD, no raw HTML from the documents but their anchors.
 */
class DocumentRoutesTest {

    /** A served document: its path and the packaged file it is rendered from. */
    enum Route {
        RUNBOOKS("/runbooks", "runbooks.md"),
        FINDINGS("/findings", "hbase-findings.md"),
        FINDINGS_SECURITY("/findings-security", "hbase-findings-security.md"),
        FINDINGS_LEAKS("/findings-leaks", "hbase-findings-leaks.md");

        final String path;
        final String file;

        Route(String path, String file) {
            this.path = path;
            this.file = file;
        }
    }

    private static final Pattern RUNBOOK_URL = Pattern.compile("runbook_url: \"[^\"#]*/runbooks#([a-z0-9-]+)\"");
    private static final String PASSWORD = "s3cret";
    private static final String AUTH = "Authorization: Basic "
            + Base64.getEncoder().encodeToString(("prometheus:" + PASSWORD).getBytes(StandardCharsets.UTF_8))
            + "\r\n";

    private static HostProcess host;

    @BeforeAll
    static void startHost() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, PASSWORD.toCharArray())
                .toString();
        host = HostProcess.start(
                Map.of(), List.of(), "auth.user=prometheus", "auth.password.hash=" + hash, "jfr=off", "threads=4");
        // Verified once here, the right credentials are remembered: no later attempt depends on the ration.
        assertEquals(200, get("GET", Route.RUNBOOKS.path, AUTH).status, host.toString());
    }

    /** After every attack: the host still runs and still serves each document. */
    @AfterAll
    static void stillServingThenStop() throws Exception {
        if (host == null) {
            return;
        }
        try {
            assertTrue(host.isAlive(), host.toString());
            for (Route route : Route.values()) {
                assertEquals(200, get("GET", route.path, AUTH).status, "still serving " + route.path);
            }
        } finally {
            host.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void withoutCredentialsNothingOfTheDocument(Route route) throws Exception {
        assertRefused(get("GET", route.path, ""));
    }

    /**
     * Once, not per document: each wrong password costs a hash from the per-client ration (AuthGate), and
     * which document was asked for does not change the check.
     */
    @Test
    void wrongCredentialsGetNothingEither() throws Exception {
        assertRefused(get("GET", Route.RUNBOOKS.path, "Authorization: Basic cHJvbWV0aGV1czp4\r\n"));
    }

    private static void assertRefused(RawHttp.Answer refused) {
        assertEquals(401, refused.status, refused.text);
        assertFalse(
                refused.text.contains("<a id=")
                        || refused.text.contains("<h2 id=")
                        || refused.text.contains("BlockscopeHotCopyPath"),
                refused.text);
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void servedAsHtmlWithoutScriptAndHeadWithoutBody(Route route) throws Exception {
        String html = page(get("GET", route.path, AUTH));
        assertFalse(html.contains("<script"), "the page has no script");
        RawHttp.Answer head = get("HEAD", route.path, AUTH);
        assertEquals(200, head.status, head.text);
        assertTrue(head.text.endsWith("\r\n\r\n"), "HEAD has no body");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void noMethodButGetAndHead(Route route) throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
            RawHttp.Answer odd = get(method, route.path, AUTH);
            assertEquals(405, odd.status, method + ": " + odd);
            assertTrue(odd.text.contains("Allow: GET, HEAD"), method + ": " + odd);
        }
    }

    /** Each document's attacks: a traversal, an encoded one, near names and other extensions of it. */
    static Set<String> attacks() {
        Set<String> targets = new LinkedHashSet<>();
        targets.add("/..%5c..%5cetc%5cpasswd");
        for (Route route : Route.values()) {
            String path = route.path;
            targets.addAll(List.of(
                    path + "/../../etc/passwd",
                    path + "/%2e%2e/%2e%2e/pom.xml",
                    path + "%2f..%2f..%2fpom.xml",
                    path + "/../runbooks",
                    path + ".md",
                    path + ".html",
                    "/" + route.file,
                    path + "/",
                    path + "/" + route.file,
                    "/docs/" + route.file,
                    "/io/blockscope/exporter/page/" + route.file,
                    "/images" + path + "/fuzzy-row-filter.svg",
                    path.toUpperCase(Locale.ROOT),
                    path + "%00",
                    path + "?x=../../etc/passwd#frag"));
        }
        return targets;
    }

    @ParameterizedTest
    @MethodSource("attacks")
    void noOtherFileByAnyName(String target) throws Exception {
        RawHttp.Answer odd = get("GET", target, AUTH);
        if (target.endsWith("/../runbooks") && odd.status == 200) {
            // Jetty resolves dot segments before routing: the endpoint's own runbooks, never a file.
            assertTrue(odd.text.contains("<h2 id=\"blockscopehotcopypath\">"), odd.text);
            return;
        }
        if (target.contains("?")) {
            // The query is not part of the path (and a '#' makes the target invalid): the page itself or
            // a refusal, never a file.
            assertTrue(odd.status == 200 || odd.status == 400, target + ": " + odd);
            assertFalse(odd.text.contains("root:"), target);
            return;
        }
        assertTrue(odd.status == 400 || odd.status == 404, target + ": " + odd);
        assertFalse(
                odd.text.contains("root:") || odd.text.contains("<a id=") || odd.text.contains("<h2 id="),
                target + ": " + odd);
    }

    @Test
    void theRunbooksHaveEverySectionTheShippedAlertsLinkTo() throws Exception {
        Set<String> anchors = new LinkedHashSet<>();
        for (String rules : List.of("alerts.yml", "k8s/prometheusrule.yaml")) {
            Matcher m = RUNBOOK_URL.matcher(Files.readString(Path.of("..", "dashboards", rules)));
            while (m.find()) {
                anchors.add(m.group(1));
            }
        }
        assertTrue(anchors.size() >= 16, "the shipped alerts link the agent's /runbooks: " + anchors);
        String html = page(get("GET", Route.RUNBOOKS.path, AUTH));
        List<String> missing = new ArrayList<>();
        for (String anchor : anchors) {
            if (!html.contains("<h2 id=\"" + anchor + "\">")) {
                missing.add(anchor);
            }
        }
        assertEquals(List.of(), missing, "sections the alerts link to that /runbooks lacks");
    }

    @Test
    void theFindingsHaveTheAnchorsTheirTablesAndTheLivePageLinkTo() throws Exception {
        String findings = page(get("GET", Route.FINDINGS.path, AUTH));
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
        String security = page(get("GET", Route.FINDINGS_SECURITY.path, AUTH));
        assertTrue(security.contains("<a id=\"visibility-label-filter\"></a>"), security);
        assertTrue(security.contains("<a id=\"access-control-filter\"></a>"), security);
        String leaks = page(get("GET", Route.FINDINGS_LEAKS.path, AUTH));
        assertTrue(leaks.contains("<a id=\"intermediate-index-blocks-2-5\"></a>"), leaks);
        assertTrue(leaks.contains("<a href=\"findings-leaks\">leak findings</a>"), "every page's header links it");
    }

    /** The body of a 200 HTML answer with the endpoint's policy, decoded as UTF-8. */
    private static String page(RawHttp.Answer answer) {
        assertEquals(200, answer.status, answer.text);
        String html = new String(answer.text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        assertTrue(html.contains("Content-Type: text/html; charset=utf-8"), html.substring(0, 400));
        assertTrue(html.contains("Content-Security-Policy: default-src 'none'"), html.substring(0, 600));
        return html;
    }

    private static RawHttp.Answer get(String method, String target, String headers) throws Exception {
        String request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
                + (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
                        ? "Content-Length: 0\r\n"
                        : "")
                + "Connection: close\r\n\r\n";
        return RawHttp.send(null, host.port(), RawHttp.bytes(request), 10_000);
    }
}
