package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.snapshots.Labels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The page rendered from a registry with the agent's series, on a clock the test moves. */
class LivePageTest extends PageFixture {

    private static final String HOSTILE = "<script>alert('pwned')</script>\"><img src=x onerror=alert(1)>.go:1";
    private static final String FILTER_SITE = "io.blockscope.server.demo.CopyingValueFilter.filterCell:37";

    private Counter leaks;
    private Gauge outstanding;
    private Histogram gcPauses;
    private Gauge slots;

    @BeforeEach
    void registry() {
        leaks = counter(registry, "blockscope_block_leaks_total", "site", "kind", "reason");
        outstanding = Gauge.builder()
                .name("blockscope_block_refs_outstanding")
                .labelNames("tier")
                .register(registry);
        gcPauses = Histogram.builder()
                .name("blockscope_gc_pause_seconds")
                .classicOnly()
                .labelNames("gc")
                .register(registry);
        slots = Gauge.builder()
                .name("blockscope_bucket_slots")
                .labelNames("size_class", "state")
                .register(registry);
        counter(registry, "unrelated_total").inc(5);
    }

    @Test
    void zeroCopyServerGetsAGreenVerdict() {
        gets.labelValues("l2", "hit").inc(1000);
        outstanding.labelValues("l2").set(0);
        page.sample();
        clock.addAndGet(10_000);
        gets.labelValues("l2", "hit").inc(5000);
        page.sample();

        String html = html(page.reply(LivePage.PAGE));
        assertTrue(html.contains("data-verdict=\"zero_copy\""), html);
        assertTrue(html.contains("500 block cache gets/s"), html);
        assertTrue(html.contains("No copies onto the heap in the last 10s"), html);
        assertTrue(html.contains("None detected"), html);
    }

    @Test
    void copySitesShowTheirRateOverTheWindowSortedByRate() {
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(10_000);
        siteBytes.labelValues(FILTER_SITE).inc(50 * 1024 * 1024);
        siteBytes.labelValues("com.acme.Other.read:7").inc(10 * 1024);
        componentBytes.labelValues("value").inc(50 * 1024 * 1024);
        page.sample();

        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("data-verdict=\"copying\""), html);
        assertTrue(html.contains("Copying: 5.0 MiB/s onto the heap"), html);
        int filter = html.indexOf(FILTER_SITE);
        int other = html.indexOf("com.acme.Other.read:7");
        assertTrue(filter > 0 && other > filter, "sorted by rate, the filter first: " + html);
        assertTrue(html.contains("data-bytes-per-second=\"5242880\">5.0 MiB/s"), html);
        assertTrue(html.contains("1.0 KiB/s"), html);
    }

    /**
     * A site in HBase's own classes that a RegionServer run measured gets that run's alternative
     * (hbase-copy-advice.tsv), whatever line number the release puts it on; the application's own
     * site points to the runbook's zero-copy calls.
     */
    @Test
    void anHBaseSiteSaysWhatToUseInsteadAndAnApplicationSitePointsToTheRunbook() {
        String regex = "org.apache.hadoop.hbase.filter.ValueFilter(RegexStringComparator).filterCell:";
        CopyAdvice.Entry expected = CopyAdvice.forSite(regex + "1");
        assertTrue(
                expected != null,
                "the measured regex value filter has advice: "
                        + CopyAdvice.all().keySet());
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(10_000);
        siteBytes.labelValues(regex + "999").inc(50 * 1024 * 1024);
        siteBytes.labelValues(FILTER_SITE).inc(10 * 1024);
        componentBytes.labelValues("value").inc(50 * 1024 * 1024);
        page.sample();

        String html = html(page.reply(LivePage.FRAGMENT));
        int hbase = html.indexOf(regex + "999");
        int user = html.indexOf(FILTER_SITE);
        assertTrue(hbase > 0 && user > hbase, html);
        String hbaseRow = html.substring(hbase, user);
        assertTrue(hbaseRow.contains(Html.escape(expected.instead)), hbaseRow);
        assertTrue(expected.instead.contains("BinaryComparator"), "equality reads in place: " + expected.instead);
        String userRow = html.substring(user);
        assertTrue(userRow.contains(PageRenderer.RUNBOOK_COPY), userRow);
    }

    @Test
    void leaksShowTheirSiteCountAndAgeAndMakeTheVerdictRed() {
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(2_000);
        leaks.labelValues("io.blockscope.server.demo.LeakingReader.checkOut:80", "checkout", "age")
                .inc(3);
        outstanding.labelValues("l2").set(120);
        page.sample();
        clock.addAndGet(30_000);
        leaks.labelValues("io.blockscope.server.demo.LeakingReader.checkOut:80", "checkout", "age")
                .inc(2);
        page.sample();
        clock.addAndGet(5_000);

        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("data-verdict=\"leaking\""), html);
        assertTrue(html.contains("Leaking: 5 sampled block reference(s) leaked in the last minute"), html);
        Matcher row = Pattern.compile("<tr class=\"leak\">(.*?)</tr>").matcher(html);
        assertTrue(row.find(), html);
        assertEquals(
                "<td class=\"name\">io.blockscope.server.demo.LeakingReader.checkOut:80</td><td>block</td><td>age</td>"
                        + "<td class=\"num count\">5</td><td class=\"num\">35s ago</td><td class=\"num\">5s ago</td>",
                row.group(1));
        assertTrue(html.contains("l2 <b>120</b>"), html);

        // A minute later without new leaks: still listed, no longer "leaking".
        for (int i = 0; i < 35; i++) {
            clock.addAndGet(2_000);
            page.sample();
        }
        html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("data-verdict=\"zero_copy\""), html);
        assertTrue(html.contains("<tr class=\"leak\">"), html);
        assertTrue(html.contains("5 sampled leaks since start"), html);
    }

    /** A leak at a site an HBase leak finding names links to it, as a copying site links to its finding. */
    @Test
    void aLeakAtASiteOfAnHBaseLeakFindingLinksToIt() {
        String site = "org.apache.hadoop.hbase.io.hfile.HFileBlock$Writer.cloneUncompressedBufferWithHeader:1124";
        leaks.labelValues(site, "buffer", "age").inc(18);
        page.sample();
        clock.addAndGet(2_000);
        page.sample();

        String html = html(page.reply(LivePage.FRAGMENT));
        Matcher row = Pattern.compile("<tr class=\"leak\">(.*?)</tr>").matcher(html);
        assertTrue(row.find(), html);
        assertTrue(
                row.group(1)
                        .startsWith("<td class=\"name\">" + Html.escape(site)
                                + " <a class=\"finding\" href=\"findings-leaks#intermediate-index-blocks-2-5\">finding: "
                                + "Intermediate index blocks cached on write leak a pooled buffer each"),
                row.group(1));
        assertTrue(row.group(1).contains("<td>pool buffer</td>"), row.group(1));
    }

    @Test
    void aLeakRowSaysForWhichTableAndRegionItsLastLeakWasTaken() {
        page.sample();
        clock.addAndGet(2_000);
        leaks.labelValues("a.Reader.next:10", "checkout", "age").inc(2); // an agent that names no region
        leaks.labelValues("org.apache.hadoop.hbase.io.hfile.HFileBlock.allocateBuffer:648", "buffer", "gc")
                .incWithExemplar(1, Labels.of("region", "0123456789abcdef", "table", "ns:<t>"));
        page.sample();
        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("<th>last taken for</th>"), html);
        assertTrue(html.contains("<td>table ns:&lt;t&gt;, region 0123456789abcdef</td></tr>"), html);
        assertTrue(html.contains("ago</td><td></td></tr>"), "a row without one says nothing: " + html);
    }

    @Test
    void leaksAndStuckBuffersAreListedByTheTableWhoseWorkTookThem() {
        Counter byTable = Counter.builder()
                .name("blockscope_block_leaks_by_table_total")
                .labelNames("table", "kind", "reason")
                .register(registry);
        Gauge stuck = Gauge.builder()
                .name("blockscope_allocator_pool_buffers_stuck_by_table")
                .labelNames("table")
                .register(registry);
        page.sample();
        clock.addAndGet(2_000);
        stuck.labelValues("default:<indexed>").set(12); // stuck, none of its takes sampled yet
        page.sample();
        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("None detected"), html);
        assertTrue(
                html.contains("<tr class=\"leak-table\"><td class=\"name\">default:&lt;indexed&gt;</td>"
                        + "<td class=\"num count\">0</td><td class=\"num count\">12</td></tr>"),
                html);

        clock.addAndGet(2_000);
        leaks.labelValues("org.apache.hadoop.hbase.io.hfile.HFileBlock$Writer.getBlockForCaching:1200", "buffer", "age")
                .inc(3);
        byTable.labelValues("default:<indexed>", "buffer", "age").inc(3);
        byTable.labelValues("ns:other", "checkout", "gc").inc(1);
        page.sample();
        html = html(page.reply(LivePage.FRAGMENT));
        Matcher rows = Pattern.compile("<tr class=\"leak-table\"><td class=\"name\">([^<]*)</td>"
                        + "<td class=\"num count\">(\\d+)</td><td class=\"num count\">(\\d+)</td>")
                .matcher(html);
        List<String> listed = new java.util.ArrayList<>();
        while (rows.find()) {
            listed.add(rows.group(1) + " " + rows.group(2) + " " + rows.group(3));
        }
        assertEquals(List.of("default:&lt;indexed&gt; 3 12", "ns:other 1 0"), listed, "most stuck first");
    }

    @Test
    void aPoolBufferLeakIsListedAsOneApartFromBlockLeaksAtTheSameSite() {
        page.sample();
        clock.addAndGet(2_000);
        leaks.labelValues("org.apache.hadoop.hbase.io.hfile.HFileBlock.allocateBuffer:648", "buffer", "gc")
                .inc(40);
        leaks.labelValues("org.apache.hadoop.hbase.io.hfile.HFileBlock.allocateBuffer:648", "checkout", "gc")
                .inc(1);
        page.sample();

        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("<th>what</th>"), html);
        Matcher rows = Pattern.compile("<tr class=\"leak\"><td class=\"name\">[^<]*</td><td>([^<]*)</td><td>gc</td>"
                        + "<td class=\"num count\">(\\d+)</td>")
                .matcher(html);
        java.util.Map<String, String> counts = new java.util.TreeMap<>();
        while (rows.find()) {
            counts.put(rows.group(1), rows.group(2));
        }
        assertEquals(java.util.Map.of("block", "1", "pool buffer", "40"), counts, html);
    }

    @Test
    void hostileLabelValuesAreEscapedEverywhere() {
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(10_000);
        siteBytes.labelValues(HOSTILE).inc(4096);
        componentBytes.labelValues("value").inc(4096);
        leaks.labelValues(HOSTILE, "checkout", "<b>gc</b>").inc();
        outstanding.labelValues("<i>l2</i>").set(1);
        page.sample();

        for (String path : new String[] {LivePage.PAGE, LivePage.FRAGMENT}) {
            String html = html(page.reply(path));
            assertFalse(html.contains("<script>alert"), html);
            assertFalse(html.contains("<img"), html);
            assertFalse(html.contains("<b>gc</b>") || html.contains("<i>l2</i>"), html);
            assertTrue(html.contains("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;&quot;&gt;&lt;img"), html);
            assertTrue(html.contains("&lt;b&gt;gc&lt;/b&gt;"), html);
            // The only script is the page's own file; the fragment has none.
            Matcher scripts = Pattern.compile("<script").matcher(html);
            int count = 0;
            while (scripts.find()) {
                count++;
            }
            assertEquals(LivePage.PAGE.equals(path) ? 1 : 0, count, html);
            if (LivePage.PAGE.equals(path)) {
                assertTrue(html.contains("<script src=\"live.js\"></script>"), html);
            }
        }
    }

    @Test
    void chartsAreInlineSvgOfTheHistoryAndBucketsShowOccupancy() {
        gets.labelValues("l2", "hit").inc(10);
        slots.labelValues("5120", "used").set(30);
        slots.labelValues("5120", "free").set(10);
        slots.labelValues("66560", "used").set(0);
        slots.labelValues("66560", "free").set(8);
        slots.labelValues("9216", "used").set(0);
        slots.labelValues("9216", "free").set(0);
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(2_000);
            outstanding.labelValues("l2").set(i * 10);
            gcPauses.labelValues("G1New").observe(0.02 * i);
            page.sample();
        }
        String html = html(page.reply(LivePage.FRAGMENT));
        assertTrue(html.contains("<svg class=\"chart\""), html);
        assertTrue(html.contains("<path class=\"line\" d=\"M0.0,58.0 L"), html);
        assertEquals(4, count(html, "<rect class=\"bar\""), "four intervals with pauses: " + html);
        assertTrue(html.contains("paused <b>200.0 ms</b> in 4 pauses over the last 8s"), html);
        assertTrue(html.contains("5.0 KiB</td><td class=\"num\">30 / 40</td>"), html);
        assertTrue(html.contains("65.0 KiB</td><td class=\"num\">0 / 8</td>"), html);
        assertTrue(html.indexOf("5.0 KiB") < html.indexOf("65.0 KiB"), "size classes in order");
        assertFalse(html.contains("9.0 KiB"), "a class without slots is left out: " + html);
        assertTrue(html.contains("1 size classes without slots not shown."), html);
        assertTrue(html.contains("peak <b>40</b>"), html);
    }

    @Test
    void firstRequestTakesTwoSamplesASecondApartSoItAlreadyShowsRates() {
        gets.labelValues("l2", "hit").inc(10);
        String html = html(page.reply(LivePage.PAGE));
        assertTrue(html.startsWith("<!DOCTYPE html>"), html);
        assertEquals(2, page.history().samples().size());
        assertEquals(
                1_000,
                page.history().samples().get(1).timeMillis
                        - page.history().samples().get(0).timeMillis);
        assertTrue(html.contains("data-verdict=\"zero_copy\""), html);
        assertFalse(html.contains("http://") || html.contains("https://"), "nothing external: " + html);
    }

    @Test
    void withoutTwoSamplesTheVerdictIsMeasuringNotZeroCopy() {
        gets.labelValues("l2", "hit").inc(10);
        History history = new History(4);
        history.add(Sample.of(registry.scrape(), clock.get()));
        ReadPathView view = ReadPathView.of(history, clock.get());
        assertEquals(ReadPathView.Verdict.MEASURING, view.verdict);
        String html = new String(PageRenderer.fragment(view), StandardCharsets.UTF_8);
        assertTrue(html.contains("Measuring: the next refresh shows the verdict"), html);
        assertTrue(html.contains("Measuring rates"), html);
    }

    @Test
    void servesItsScriptWithAPolicyAndNothingElse() {
        LivePage.Reply script = page.reply(LivePage.SCRIPT);
        assertEquals(200, script.status());
        assertEquals("text/javascript; charset=utf-8", script.contentType());
        assertTrue(new String(script.body(), StandardCharsets.UTF_8).contains("setInterval(refresh, 2000)"));
        String csp = script.headers().get("Content-Security-Policy");
        assertTrue(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), csp);
        assertNull(page.reply("/metrics"));
        assertNull(page.reply("/live/../metrics"));
        assertFalse(LivePage.serves("/index.html"));
        assertTrue(LivePage.serves("/"));
    }
}
