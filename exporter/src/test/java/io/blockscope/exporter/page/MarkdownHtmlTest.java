package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Markdown subset of the runbooks: GitHub's anchors, the document's constructs, nothing unescaped. */
class MarkdownHtmlTest {

    @Test
    void headingsGetGitHubsAnchorsNumberedWhenRepeated() {
        String html = MarkdownHtml.render("# Runbooks\n\n## BlockscopeHotCopyPath\n\n### Fix: `a.b()` & more!\n\n"
                + "### Fix: `a.b()` & more!\n");
        assertTrue(html.contains("<h1 id=\"runbooks\">Runbooks</h1>"), html);
        assertTrue(html.contains("<h2 id=\"blockscopehotcopypath\">BlockscopeHotCopyPath</h2>"), html);
        assertTrue(html.contains("<h3 id=\"fix-ab--more\">Fix: <code>a.b()</code> &amp; more!</h3>"), html);
        assertTrue(html.contains("<h3 id=\"fix-ab--more-1\">"), html);
    }

    @Test
    void everyRunbookHeadingIsAnAnchorOfThePackagedCopy() {
        // The anchors the alerts link to are GitHub's, which the dashboards tests compute from the same file.
        String markdown = Runbooks.markdown();
        String html = MarkdownHtml.render(markdown);
        Matcher heading = Pattern.compile("(?m)^(#{1,6}) (.+)$").matcher(markdown);
        List<String> missing = new ArrayList<>();
        int headings = 0;
        while (heading.find()) {
            headings++;
            String id = MarkdownHtml.slug(heading.group(2).replace("`", ""));
            if (!html.contains("<h" + heading.group(1).length() + " id=\"" + id + "\">")) {
                missing.add(id);
            }
        }
        assertEquals(List.of(), missing);
        assertTrue(headings >= 17, "headings: " + headings);
        assertTrue(html.contains("<h2 id=\"blockscopepoolbuffersstuck\">"), "an alert's section");
    }

    @Test
    void codeListsTablesAndLinksRender() {
        String html = MarkdownHtml.render(
                "Text with **bold**, *it* and a [section](#fix), a [site](https://hbase.apache.org/),"
                        + " a [doc](dashboards.md#runbook-links).\n\n"
                        + "1. First step:\n   ```\n   jcmd <pid> JFR.start\n   ```\n   then more.\n2. Second\n\n"
                        + "- a\n- b `x|y`\n\n| col | other |\n|---|---|\n| `a|b` | c \\| d |\n");
        assertTrue(html.contains("<strong>bold</strong>") && html.contains("<em>it</em>"), html);
        assertTrue(html.contains("<a href=\"#fix\">section</a>"), html);
        assertTrue(html.contains("<a href=\"https://hbase.apache.org/\">site</a>"), html);
        assertTrue(html.contains("doc <span class=\"doc\">(docs/dashboards.md#runbook-links)</span>"), html);
        assertTrue(
                html.contains("<ol>\n<li><p>First step:</p>\n<pre><code>jcmd &lt;pid&gt; JFR.start\n</code></pre>\n"
                        + "<p>then more.</p>\n</li>\n<li><p>Second</p>\n</li>\n</ol>"),
                html);
        assertTrue(html.contains("<ul>\n<li><p>a</p>\n</li>\n<li><p>b <code>x|y</code></p>\n</li>\n</ul>"), html);
        assertTrue(html.contains("<tr><td><code>a|b</code></td><td>c | d</td></tr>"), html);
    }

    @Test
    void nothingInTheDocumentBecomesMarkup() {
        String hostile = "# <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
                + "[x](javascript:alert(1)) [y](\" onmouseover=\"alert(1)) `<b>`\n\n```\n</code><script>\n```\n"
                + "| <i>a</i> |\n|---|\n| <svg/onload=alert(1)> |\n";
        String html = MarkdownHtml.render(hostile);
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<svg"), html);
        assertFalse(html.contains("<i>"), html);
        assertFalse(html.contains("href=\"javascript"), html);
        assertFalse(html.contains("href=\"\" onmouseover"), html);
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"), html);
    }
}
