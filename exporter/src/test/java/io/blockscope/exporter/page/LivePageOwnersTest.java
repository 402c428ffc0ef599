package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.snapshots.Labels;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Who copies (tables and users, where the agent exports them), what it costs the heap (share of
 * allocation, young collections), and the advisor's table, user and finding link, from a registry
 * with the agent's and the exporter's series on a clock the test moves.
 */
class LivePageOwnersTest extends PageFixture {

    private static final String FUZZY = "org.apache.hadoop.hbase.filter.FuzzyRowFilter.filterCell:236";
    private static final String APP_SITE = "com.acme.Reader.read:12";
    private static final long MIB = 1024 * 1024;

    private Counter byTable() {
        return counter(registry, "blockscope_copy_to_heap_bytes_by_table_total", "table", "component");
    }

    private Counter byUser() {
        return counter(registry, "blockscope_copy_to_heap_bytes_by_user_total", "user");
    }

    private Counter allocated() {
        return counter(registry, "blockscope_allocated_bytes_total");
    }

    private Counter collections() {
        return counter(registry, "blockscope_gc_collections_total", "gc");
    }

    /** Ten seconds in which FUZZY copies 40 MiB and APP_SITE 10 MiB (40 MiB of rows, 10 MiB of values). */
    private void tenSecondsOfCopies(Counter tables, Counter users, Counter allocatedBytes) {
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(10_000);
        siteBytes.labelValues(FUZZY).inc(40 * MIB);
        siteBytes.labelValues(APP_SITE).inc(10 * MIB);
        componentBytes.labelValues("row").inc(40 * MIB);
        componentBytes.labelValues("value").inc(10 * MIB);
        if (tables != null) {
            tables.labelValues("ns:orders", "row").inc(30 * MIB);
            tables.labelValues("ns:users", "value").inc(10 * MIB);
            tables.labelValues("ns:orders", "value").inc(2 * MIB);
            tables.labelValues("ns:<script>", "row").inc(8 * MIB);
        }
        if (users != null) {
            users.labelValues("alice").inc(35 * MIB);
            users.labelValues("(compaction)").inc(15 * MIB);
        }
        if (allocatedBytes != null) {
            allocatedBytes.inc(200 * MIB);
        }
        page.sample();
    }

    @Test
    void whoCopiesListsTablesWithComponentAndUsersByRateOverTheWindow() {
        Counter tables = byTable();
        Counter users = byUser();
        tables.labelValues("ns:idle", "row").inc(5 * MIB); // copied before the window: no rate, not listed
        tenSecondsOfCopies(tables, users, null);

        String html = html(page.reply(LivePage.FRAGMENT));
        String owners = section(html, "owners");
        assertTrue(owners.contains("<h2>Who copies</h2>"), owners);
        int orders = owners.indexOf("<td class=\"name\">ns:orders</td><td>row</td><td class=\"num rate\">3.0 MiB/s");
        int users1 = owners.indexOf("<td class=\"name\">ns:users</td><td>value</td><td class=\"num rate\">1.0 MiB/s");
        int hostile = owners.indexOf("ns:&lt;script&gt;");
        int ordersValue = owners.indexOf("<td class=\"name\">ns:orders</td><td>value</td>");
        assertTrue(orders > 0 && users1 > orders && hostile > users1 && ordersValue > hostile, "by rate: " + owners);
        assertFalse(owners.contains("ns:idle"), "no copies in the window: " + owners);
        assertFalse(owners.contains("<script>"), owners);
        int alice = owners.indexOf("<td class=\"name\">alice</td><td class=\"num rate\">3.5 MiB/s");
        int compaction = owners.indexOf("<td class=\"name\">(compaction)</td><td class=\"num rate\">1.5 MiB/s");
        assertTrue(alice > 0 && compaction > alice, owners);
    }

    @Test
    void withoutOwnerSeriesThePageSaysNothingAboutThem() {
        tenSecondsOfCopies(null, null, null);
        String html = html(page.reply(LivePage.FRAGMENT));
        assertFalse(html.contains("id=\"owners\""), html);
        assertFalse(html.contains("Who copies") || html.contains("copying most on this server"), html);
        assertTrue(html.contains("id=\"copy-sites\""), html);
    }

    @Test
    void priceIsTheShareOfHeapAllocationAndTheYoungCollectionsItStandsFor() {
        Counter gc = collections();
        gc.labelValues("G1Old").inc(1); // not young
        gc.labelValues("G1New").inc(3);
        Counter allocated = allocated();
        allocated.inc(1 * MIB);
        tenSecondsOfCopies(byTable(), byUser(), null);
        // A minute of history at 2 s samples: 12 young collections more, 1,000 MiB allocated in
        // the last 10 s (the rate window), of which copies are 50 MiB: 5%.
        for (int i = 0; i < 25; i++) {
            clock.addAndGet(2_000);
            gc.labelValues("G1New").inc(i < 24 ? 0.5 : 0);
            allocated.inc(200 * MIB);
            siteBytes.labelValues(FUZZY).inc(8 * MIB);
            siteBytes.labelValues(APP_SITE).inc(2 * MIB);
            componentBytes.labelValues("row").inc(10 * MIB);
            page.sample();
        }
        ReadPathView view = ReadPathView.of(page.history(), clock.get());
        assertEquals(100 * MIB, view.price.allocatedBytesPerSecond, 1);
        assertEquals(5 * MIB, view.copyBytesPerSecond, 1);
        assertEquals(0.05, view.price.copyShare, 1e-9);
        long history = view.historyMillis;
        assertEquals(60_000, history);
        assertEquals(12.0, view.price.youngPerMinute, 1e-9, "12 young collections over the minute, G1Old left out");
        assertEquals("G1New", view.price.youngCollectors);
        assertEquals(0.6, view.price.youngPerMinute(view.copyBytesPerSecond), 1e-9);

        String html = html(page.reply(LivePage.FRAGMENT));
        String price = section(html, "price");
        assertTrue(price.contains("<b id=\"copy-share\">5.0%</b> of this server's heap allocation"), price);
        assertTrue(
                price.contains("<b id=\"copy-young\">0.6</b> of its <b id=\"young\">12.0</b> young collections"
                        + " a minute (G1New, over the last 1m 0s)"),
                price);
        assertTrue(price.contains("<b id=\"allocated\">100.0 MiB/s</b>"), price);
        assertTrue(html.contains("(5.0% of this server's heap allocation)"), "in the verdict: " + html);
        String sites = section(html, "copy");
        // 4 MiB/s of 100 MiB/s at the fuzzy filter's site, 1 MiB/s at the application's.
        assertTrue(
                sites.contains("<td class=\"num share\" title=\"stands for 0.5 young collections a minute\">4.0%</td>"),
                sites);
        assertTrue(sites.contains(">1.0%</td>"), sites);
        assertFalse(html.contains("NaN") || html.contains("Infinity"), html);
    }

    @Test
    void withoutAnAllocationFigureThePriceIsNotApplicableAndSaysWhy() {
        Info source =
                Info.builder().name("blockscope_gc_source").labelNames("source").register(registry);
        source.setLabelValues("mxbean");
        collections().labelValues("G1 Young Generation").inc(4);
        tenSecondsOfCopies(null, null, null);

        String html = html(page.reply(LivePage.FRAGMENT));
        String price = section(html, "price");
        assertTrue(
                price.contains("<b id=\"copy-share\">n/a</b> (no allocation figure: GC metrics come from the GC"
                        + " MXBeans (JDK 11 to 15, or JFR off), which do not measure allocation)"),
                price);
        assertTrue(section(html, "copy").contains(">n/a</td>"), html);
        assertFalse(html.contains("NaN") || html.contains("Infinity") || html.contains("of this server's heap"), html);
    }

    @Test
    void noAllocationInTheWindowIsNotADivisionByZero() {
        Counter allocated = allocated();
        allocated.inc(5 * MIB); // all before the window
        collections().labelValues("Z").inc(2);
        tenSecondsOfCopies(null, null, allocated);
        ReadPathView view = ReadPathView.of(page.history(), clock.get());
        assertEquals(0.25, view.price.copyShare, 1e-9, "50 MiB of 200 MiB");
        assertTrue(view.price.youngUnavailable.contains("(Z) has no young collections"), view.price.youngUnavailable);

        clock.addAndGet(10_000);
        page.sample(); // ten more seconds: no copies, no allocation
        view = ReadPathView.of(page.history(), clock.get());
        assertTrue(Double.isNaN(view.price.copyShare));
        assertTrue(
                view.price.unavailable.startsWith("no heap allocation measured in the last 10s"),
                view.price.unavailable);
        String html = new String(PageRenderer.fragment(view), StandardCharsets.UTF_8);
        assertTrue(html.contains("<b id=\"copy-share\">n/a</b> (no heap allocation measured"), html);
        assertFalse(html.contains("NaN") || html.contains("Infinity"), html);
    }

    /**
     * An HBase site with a confirmed finding links to it on this endpoint, and the advisor names the
     * server's top table and user, saying they are not per site; the application's site gets the
     * runbook and no finding.
     */
    @Test
    void theAdvisorLinksTheFindingAndNamesTheTopTableAndUser() {
        tenSecondsOfCopies(byTable(), byUser(), null);
        String html = html(page.reply(LivePage.FRAGMENT));
        String sites = section(html, "copy");
        int fuzzy = sites.indexOf(FUZZY);
        int app = sites.indexOf(APP_SITE);
        assertTrue(fuzzy > 0 && app > fuzzy, sites);
        String fuzzyRow = sites.substring(fuzzy, app);
        assertTrue(
                fuzzyRow.contains("<a class=\"finding\" href=\"findings#fuzzy-row-filter\">finding: FuzzyRowFilter"
                        + " copies the row once per fuzzy key it tries</a>"),
                fuzzyRow);
        assertTrue(
                fuzzyRow.contains(
                        "copying most on this server (not per site): table <b>ns:orders</b>, user <b>alice</b>"),
                "ns:orders copies 3.2 MiB/s over two components: " + fuzzyRow);
        String appRow = sites.substring(app);
        assertTrue(appRow.contains(PageRenderer.RUNBOOK_COPY), appRow);
        assertFalse(appRow.contains("class=\"finding\"") || appRow.contains("copying most"), appRow);

        // The link resolves on this endpoint: the finding's anchor is on /findings.
        String findings = html(page.reply(LivePage.FINDINGS));
        assertTrue(findings.contains("<a id=\"fuzzy-row-filter\"></a>"), findings.substring(0, 2000));
    }

    /**
     * With the agent's copies by site and owner, each site names the table and user that copied most
     * there over the window, not the server's top ones: the app's site is bob's on ns:users although
     * alice on ns:orders copies most on the server; an owner whose bytes came before the window, and
     * the overflow row, are not named.
     */
    @Test
    void eachSiteNamesTheTableAndUserThatCopiedMostThere() {
        Counter owners = counter(registry, "blockscope_copy_site_owner_bytes_total", "site", "table", "user");
        owners.labelValues(APP_SITE, "ns:idle", "carol").inc(90 * MIB); // before the window
        owners.labelValues(APP_SITE, "other", "other").inc(1); // the overflow row, never named
        tenSecondsOfCopiesWith(() -> {
            owners.labelValues(FUZZY, "ns:orders", "alice").inc(30 * MIB);
            owners.labelValues(FUZZY, "ns:<script>", "mallory").inc(10 * MIB);
            owners.labelValues(APP_SITE, "ns:users", "bob").inc(9 * MIB);
            owners.labelValues(APP_SITE, "ns:orders", "alice").inc(1 * MIB);
            owners.labelValues(APP_SITE, "other", "other").inc(50 * MIB);
        });
        String sites = section(html(page.reply(LivePage.FRAGMENT)), "copy");
        int fuzzy = sites.indexOf(FUZZY);
        int app = sites.indexOf(APP_SITE);
        assertTrue(fuzzy > 0 && app > fuzzy, sites);
        String fuzzyRow = sites.substring(fuzzy, app);
        String appRow = sites.substring(app);
        assertTrue(
                fuzzyRow.contains("copying here most: table <b>ns:orders</b>, user <b>alice</b> (sampled)"), fuzzyRow);
        assertTrue(appRow.contains("copying here most: table <b>ns:users</b>, user <b>bob</b> (sampled)"), appRow);
        assertFalse(sites.contains("copying most on this server"), "the site's own owner, not the server's");
        assertFalse(sites.contains("<script>"), "owners are escaped");
    }

    /** A site's bytes with an exemplar (HBase's agent) say where its last sampled copy was made. */
    @Test
    void aSiteSaysForWhichTableAndRegionItsLastSampledCopyWasMade() {
        tenSecondsOfCopiesWith(() -> siteBytes
                .labelValues(FUZZY)
                .incWithExemplar(1 * MIB, Labels.of("region", "0123456789abcdef", "table", "ns:<t>")));
        String sites = section(html(page.reply(LivePage.FRAGMENT)), "copy");
        int fuzzy = sites.indexOf(FUZZY);
        int app = sites.indexOf(APP_SITE);
        assertTrue(fuzzy > 0 && app > fuzzy, sites);
        assertTrue(
                sites.substring(fuzzy, app)
                        .contains(
                                "<div class=\"who muted\">last sampled copy: table ns:&lt;t&gt;, region 0123456789abcdef</div>"),
                sites);
        assertFalse(sites.substring(app).contains("last sampled copy"), "no exemplar, nothing said: " + sites);
    }

    /** Ten seconds of FUZZY's and APP_SITE's copies, with {@code more} in the same window. */
    private void tenSecondsOfCopiesWith(Runnable more) {
        gets.labelValues("l2", "hit").inc(10);
        page.sample();
        clock.addAndGet(10_000);
        siteBytes.labelValues(FUZZY).inc(40 * MIB);
        siteBytes.labelValues(APP_SITE).inc(10 * MIB);
        more.run();
        page.sample();
    }

    private static String section(String html, String id) {
        int start = html.indexOf("<section id=\"" + id + "\"");
        assertTrue(start >= 0, "no section " + id + ": " + html);
        return html.substring(start, html.indexOf("</section>", start));
    }
}
