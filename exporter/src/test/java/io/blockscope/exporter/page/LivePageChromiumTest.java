package io.blockscope.exporter.page;

import static io.blockscope.exporter.page.PageFixture.count;
import static io.blockscope.exporter.page.PageFixture.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.testing.Http;
import io.blockscope.testsupport.HeadlessChromium;
import io.prometheus.metrics.core.metrics.Counter;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile label values in a real browser: a "class name" that is markup and script, served by the
 * real endpoint and rendered by headless Chromium (Debian's {@code chromium}, installed by
 * .ci/test), first by the server and then again by the page's own refresh. Nothing may become an
 * element or run: the dumped DOM has the names as text only, and the canary the scripts would set
 * is absent.
 */
class LivePageChromiumTest {

    private static final String CANARY = "document.body.setAttribute('data-pwned','1')";
    private static final String SCRIPT_SITE = "com.evil.<script>" + CANARY + "</script>.read:1";
    private static final String IMG_SITE = "com.evil.<img src=x onerror=\"" + CANARY + "\">.read:2";

    @TempDir
    Path dir;

    @Test
    void markupInClassNamesStaysText() throws Exception {
        try (Exporter exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0", Map.of()))) {
            Counter sites = counter(exporter.registry(), "blockscope_copy_site_bytes_total", "site");
            Counter components = counter(exporter.registry(), "blockscope_copy_to_heap_bytes_total", "component");
            Counter leaks = counter(exporter.registry(), "blockscope_block_leaks_total", "site", "reason");
            String page = page(exporter);
            String dom = refreshedDom(exporter, () -> {
                sites.labelValues(SCRIPT_SITE).inc(1 << 20);
                sites.labelValues(IMG_SITE).inc(1 << 19);
                components.labelValues("value").inc(3 << 19);
                leaks.labelValues(IMG_SITE, "gc").inc();
                leaks.labelValues(SCRIPT_SITE, "<b>age</b>").inc();
            });

            assertTrue(dom.contains("data-verdict=\"copying_and_leaking\""), dom);
            assertEquals(2, count(dom, "<tr class=\"site\">"), "both copy sites listed\n" + dom);
            assertEquals(2, count(dom, "<tr class=\"leak\">"), "both leaks listed\n" + dom);
            assertFalse(dom.contains("<b>age</b>"), dom);
            assertTrue(dom.contains("&lt;b&gt;age&lt;/b&gt;"), dom);
            assertTrue(
                    dom.contains(
                            "com.evil.&lt;script&gt;document.body.setAttribute('data-pwned','1')&lt;/script&gt;.read:1"),
                    dom);
            assertTrue(
                    dom.contains(
                            "com.evil.&lt;img src=x onerror=\"document.body.setAttribute('data-pwned','1')\"&gt;.read:2"),
                    dom);

            // A site without HBase advice links the runbook's zero-copy calls: this endpoint's own copy, in
            // a section the browser finds.
            Matcher link = Pattern.compile("<a href=\"([^\"]+)\">zero-copy calls \\(runbook\\)</a>")
                    .matcher(dom);
            assertTrue(link.find(), dom);
            URI runbook = URI.create(page).resolve(link.group(1));
            assertEquals(
                    "http://127.0.0.1:" + exporter.port() + "/runbooks",
                    runbook.toString().split("#")[0]);
            String runbooks = HeadlessChromium.in(dir).run("--dump-dom", runbook.toString());
            assertTrue(runbooks.contains("<h2 id=\"" + runbook.getFragment() + "\">"), runbooks);
            assertTrue(runbooks.contains("async-profiler"), "the section's text\n" + runbooks);
        }
    }

    /**
     * On an HBase server's page: who copies (hostile table and user names stay text), the price next
     * to the sites, and a site's finding link that the browser follows to its section on this endpoint.
     */
    @Test
    void anHBaseSiteLinksItsFindingAndTheOwnersStayText() throws Exception {
        String fuzzy = "org.apache.hadoop.hbase.filter.FuzzyRowFilter.filterCell:236";
        String table = "ns:<img src=x onerror=\"" + CANARY + "\">";
        String user = "<script>" + CANARY + "</script>";
        try (Exporter exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0", Map.of()))) {
            Counter sites = counter(exporter.registry(), "blockscope_copy_site_bytes_total", "site");
            Counter components = counter(exporter.registry(), "blockscope_copy_to_heap_bytes_total", "component");
            Counter tables =
                    counter(exporter.registry(), "blockscope_copy_to_heap_bytes_by_table_total", "table", "component");
            Counter users = counter(exporter.registry(), "blockscope_copy_to_heap_bytes_by_user_total", "user");
            String page = page(exporter);
            String dom = refreshedDom(exporter, () -> {
                sites.labelValues(fuzzy).inc(1 << 20);
                components.labelValues("row").inc(1 << 20);
                tables.labelValues(table, "row").inc(1 << 20);
                users.labelValues(user).inc(1 << 20);
            });

            assertEquals(1, count(dom, "<tr class=\"table\">"), dom);
            assertEquals(1, count(dom, "<tr class=\"user\">"), dom);
            assertTrue(dom.contains("ns:&lt;img src=x onerror="), dom);
            assertTrue(dom.contains("id=\"copy-share\""), "the price section\n" + dom);
            assertFalse(dom.contains("NaN") || dom.contains("Infinity"), dom);
            assertTrue(dom.contains("copying most on this server (not per site): table <b>ns:&lt;img"), dom);

            Matcher link = Pattern.compile("<a class=\"finding\" href=\"([^\"]+)\">finding: ")
                    .matcher(dom);
            assertTrue(link.find(), dom);
            URI finding = URI.create(page).resolve(link.group(1));
            assertEquals("http://127.0.0.1:" + exporter.port() + "/findings#fuzzy-row-filter", finding.toString());
            String findings = HeadlessChromium.in(dir).run("--dump-dom", finding.toString());
            assertTrue(findings.contains("<a id=\"fuzzy-row-filter\"></a>"), findings);
            assertTrue(findings.contains("FuzzyRowFilter copies the row once per fuzzy key it tries</h2>"), findings);
            assertFalse(findings.contains("<script"), findings);
        }
    }

    @Test
    void behindBasicAuthThePageLoadsAndRefreshesWithTheSameCredentials() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 20_000, "s3cret".toCharArray())
                .toString();
        try (Exporter exporter = Exporter.start(
                ExporterConfig.parse("127.0.0.1:0", Map.of("auth.user", "prometheus", "auth.password.hash", hash)))) {
            counter(exporter.registry(), "blockscope_block_cache_gets_total", "tier", "result")
                    .labelValues("l2", "hit")
                    .inc(100);
            String dom = HeadlessChromium.in(dir)
                    .run(
                            "--virtual-time-budget=5000",
                            "--dump-dom",
                            "http://prometheus:s3cret@127.0.0.1:" + exporter.port() + "/");
            assertTrue(dom.contains("data-verdict=\"zero_copy\""), dom);
            Matcher refreshes = Pattern.compile("data-refreshes=\"(\\d+)\"").matcher(dom);
            assertTrue(refreshes.find() && Integer.parseInt(refreshes.group(1)) >= 1, "refreshed\n" + dom);
            assertFalse(dom.contains("refresh failed"), dom);
        }
    }

    private static String page(Exporter exporter) {
        return "http://127.0.0.1:" + exporter.port() + "/";
    }

    /**
     * The page's DOM after Chromium ran its script: the page is requested once (it samples from its first
     * request on, so counts that {@code copies} grows after it have a rate), then dumped once the page's
     * own refresh has run. Whatever the hostile names, no injected script ran and no element appeared.
     */
    private String refreshedDom(Exporter exporter, Runnable copies) throws Exception {
        counter(exporter.registry(), "blockscope_block_cache_gets_total", "tier", "result")
                .labelValues("l2", "hit")
                .inc(100);
        assertEquals(200, Http.get(URI.create(page(exporter))).statusCode());
        copies.run();
        Thread.sleep(2 * LivePage.SAMPLE_MS + 500);
        String dom = HeadlessChromium.in(dir).run("--virtual-time-budget=5000", "--dump-dom", page(exporter));

        assertTrue(dom.contains("data-refreshes=\""), dom);
        assertFalse(dom.contains("data-refreshes=\"0\""), "the page's script refreshed it\n" + dom);
        assertFalse(Pattern.compile("<body[^>]*data-pwned").matcher(dom).find(), "an injected script ran\n" + dom);
        assertEquals(1, count(dom, "<script"), "only the page's own script element\n" + dom);
        assertFalse(dom.contains("<img"), "no injected element\n" + dom);
        return dom;
    }
}
