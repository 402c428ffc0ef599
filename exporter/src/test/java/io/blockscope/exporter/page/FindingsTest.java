package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The site-to-finding map against the checked-in findings pages (docs/hbase-findings*.md, which the
 * RegionServer runs generate): every finding there is reachable from at least one site, every site a
 * finding's table names maps to that finding, and each link resolves on the served page.
 */
class FindingsTest {

    private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]+)\"></a>");
    /** A row of a page's table of findings: its anchor, then the sites it names (4th column). */
    private static final Pattern ROW =
            Pattern.compile("^\\| \\[[^]]+]\\(#([a-z0-9-]+)\\) \\|[^|]*\\|[^|]*\\|([^|]*)\\|", Pattern.MULTILINE);

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void thePackagedPagesAreTheCheckedInOnes() throws IOException {
        assertEquals(docs("hbase-findings.md"), Documents.FINDINGS.markdown());
        assertEquals(docs("hbase-findings-security.md"), Documents.FINDINGS_SECURITY.markdown());
        assertEquals(docs("hbase-findings-leaks.md"), Documents.FINDINGS_LEAKS.markdown());
    }

    @Test
    void everyFindingIsReachableFromTheSitesItsTableNames() throws IOException {
        int findings = 0;
        for (String[] page :
                new String[][] {{"hbase-findings.md", "findings"}, {"hbase-findings-security.md", "findings-security"}
                }) {
            String markdown = docs(page[0]);
            Set<String> anchors = new LinkedHashSet<>();
            Matcher a = ANCHOR.matcher(markdown);
            while (a.find()) {
                anchors.add(a.group(1));
            }
            Set<String> linked = new LinkedHashSet<>();
            Matcher row = ROW.matcher(markdown);
            while (row.find()) {
                Matcher code = CODE.matcher(row.group(2));
                assertTrue(code.find(), "a finding's row names a site: " + row.group());
                do {
                    Findings.Link link = Findings.forSite(code.group(1));
                    assertNotNull(link, code.group(1) + " has no finding link");
                    assertEquals(page[1] + "#" + row.group(1), link.href, code.group(1));
                    linked.add(row.group(1));
                } while (code.find());
            }
            assertEquals(anchors, linked, page[0] + ": every finding reachable from a site");
            findings += anchors.size();
        }
        assertTrue(findings >= 9, "the confirmed findings of issue 48: " + findings);
    }

    @Test
    void sitesMatchWithoutTheirLineAndOthersHaveNone() {
        Findings.Link fuzzy = Findings.forSite("org.apache.hadoop.hbase.filter.FuzzyRowFilter.filterCell:999");
        assertEquals("findings#fuzzy-row-filter", fuzzy.href);
        assertEquals("FuzzyRowFilter copies the row once per fuzzy key it tries", fuzzy.title);
        assertEquals(
                "findings#fuzzy-row-filter",
                Findings.forSite("org.apache.hadoop.hbase.filter.FuzzyRowFilter.filterRowKey").href,
                "a site named without a line");
        assertEquals(
                "findings-security#access-control-filter",
                Findings.forSite("org.apache.hadoop.hbase.security.access.AccessControlFilter.filterCell:120").href);
        assertNull(
                Findings.forSite("org.apache.hadoop.hbase.filter.ValueFilter(RegexStringComparator).filterCell:1"),
                "measured and advised on, but not a finding");
        assertNull(Findings.forSite("com.acme.Reader.read:12"));
        assertNull(Findings.forSite(""));
    }

    /** Every link the page can show lands on an anchor of the page it names, as this endpoint serves it. */
    @Test
    void everyLinkResolvesOnTheServedPages() {
        Map<String, Findings.Link> all = Findings.all();
        assertTrue(all.size() >= 10, all.keySet().toString());
        String findings = new String(Documents.FINDINGS.reply().body(), StandardCharsets.UTF_8);
        String security = new String(Documents.FINDINGS_SECURITY.reply().body(), StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>();
        for (Findings.Link link : all.values()) {
            String[] parts = link.href.split("#", 2);
            String html = parts[0].equals("findings") ? findings : security;
            if (!html.contains("<a id=\"" + parts[1] + "\"></a>")) {
                missing.add(link.href);
            }
        }
        assertEquals(List.of(), missing);
        // The table of findings links its sections; the two pages link each other on this endpoint.
        assertTrue(findings.contains("<a href=\"#fuzzy-row-filter\">FuzzyRowFilter copies the row"), findings);
        assertTrue(findings.contains("<a href=\"findings-security\">their own page</a>"), findings);
        assertTrue(findings.contains("<a href=\"findings-leaks\">hbase-findings-leaks.md</a>"), findings);
        assertTrue(security.contains("<a href=\"findings\">their own page</a>"), security);
        assertTrue(findings.contains("<details><summary>Draft report for HBase's issue tracker</summary>"), findings);
        assertFalse(findings.contains("generated by RegionServerFindingsTest: do not edit"), "comments left out");
        assertFalse(findings.contains("&lt;a id="), "no anchor left as text");
        assertFalse(findings.contains("&lt;details"), "no details left as text");
    }

    /**
     * A leak's site (where the leaked buffers were taken) links to the leak finding that names it, on
     * the served leak page; the copy sites' map, which the hot-copy alert imports, holds no leak site.
     */
    @Test
    void aLeakSiteLinksToItsLeakFindingAndOnlyLeaksDo() throws IOException {
        String leaksPage = docs("hbase-findings-leaks.md");
        Matcher row = ROW.matcher(leaksPage);
        assertTrue(row.find(), "the leak page's table names its sites");
        Matcher code = CODE.matcher(row.group(2));
        int sites = 0;
        while (code.find()) {
            Findings.Link link = Findings.forLeakSite(code.group(1));
            assertNotNull(link, code.group(1));
            assertEquals("findings-leaks#" + row.group(1), link.href);
            assertNull(Findings.forSite(code.group(1)), "a leak site is not a copy site");
            sites++;
        }
        assertTrue(sites >= 1, row.group());
        assertEquals(
                "findings-leaks#intermediate-index-blocks-2-5",
                Findings.forLeakSite(
                                "org.apache.hadoop.hbase.io.hfile.HFileBlock$Writer.cloneUncompressedBufferWithHeader:9")
                        .href,
                "matched without the line");
        assertNull(Findings.forLeakSite("io.blockscope.server.demo.LeakingReader.checkOut:80"));
        assertNull(Findings.forLeakSite("acquired at"), "the bullet's other code is no site");
        String served = new String(Documents.FINDINGS_LEAKS.reply().body(), StandardCharsets.UTF_8);
        assertTrue(served.contains("<a id=\"intermediate-index-blocks-2-5\"></a>"), "the link lands");
        assertTrue(served.contains("<a href=\"findings\">hbase-findings.md</a>"), "links the copy findings here");
    }

    private static String docs(String name) throws IOException {
        return Files.readString(Path.of("..", "docs", name));
    }
}
