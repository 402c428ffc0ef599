package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The runbooks as HTML: GitHub's anchors, the document's constructs, no markup from the document. */
class MarkdownHtmlTest {

    @Test
    void headingsGetGitHubsAnchorsNumberedWhenRepeated() {
        String html = MarkdownHtml.render("# Runbooks\n\n## BlockscopeHotCopyPath\n\n### Fix: `a.b()` & more!\n\n"
                + "### Fix: `a.b()` & more!\n\n### Fix: `a.b()` & more!\n");
        assertTrue(html.contains("<h1 id=\"runbooks\">Runbooks</h1>"), html);
        assertTrue(html.contains("<h2 id=\"blockscopehotcopypath\">BlockscopeHotCopyPath</h2>"), html);
        assertTrue(html.contains("<h3 id=\"fix-ab--more\">Fix: <code>a.b()</code> &amp; more!</h3>"), html);
        assertTrue(html.contains("<h3 id=\"fix-ab--more-1\">"), html);
        assertTrue(html.contains("<h3 id=\"fix-ab--more-2\">"), html);
    }

    @Test
    void everyRunbookHeadingHasTheAnchorGitHubGivesIt() {
        // The alerts link to GitHub's anchors, which the dashboards tests (MarkdownAnchors) compute from the
        // same file by GitHub's rule: lower case, all but letters, digits, spaces, '-' and '_' dropped,
        // spaces as hyphens; a repeated anchor numbered -1, -2.
        String markdown = Documents.RUNBOOKS.markdown();
        Matcher heading = Pattern.compile("(?m)^(#{1,6}) (.+?)\\s*$").matcher(markdown);
        List<String> expected = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        while (heading.find()) {
            String slug = heading.group(2)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9 _-]", "")
                    .trim()
                    .replace(' ', '-');
            Integer n = seen.merge(slug, 1, Integer::sum) - 1;
            expected.add("h" + heading.group(1).length() + "#" + (n == 0 ? slug : slug + "-" + n));
        }
        Matcher id = Pattern.compile("<(h[1-6]) id=\"([^\"]*)\">").matcher(MarkdownHtml.render(markdown));
        List<String> rendered = new ArrayList<>();
        while (id.find()) {
            rendered.add(id.group(1) + "#" + id.group(2));
        }
        assertEquals(expected, rendered);
        assertTrue(expected.size() >= 17, "headings: " + expected);
        assertTrue(rendered.contains("h2#blockscopepoolbuffersstuck"), "an alert's section");
    }

    @Test
    void codeListsTablesAndLinksRender() {
        String html = MarkdownHtml.render(
                "Text with **bold**, *it* and a [section](#fix), a [site](https://hbase.apache.org/),"
                        + " a [doc](dashboards.md#runbook-links), a [mail](mailto:a@b.c).\n\n"
                        + "1. First step:\n   ```\n   jcmd <pid> JFR.start\n   ```\n   then more.\n2. Second\n\n"
                        + "- a\n- b `x|y`\n\n| col | other |\n|---|---|\n| `a\\|b` | c \\| d |\n");
        assertTrue(html.contains("<strong>bold</strong>") && html.contains("<em>it</em>"), html);
        assertTrue(html.contains("<a href=\"#fix\">section</a>"), html);
        assertTrue(html.contains("<a href=\"https://hbase.apache.org/\">site</a>"), html);
        assertTrue(html.contains("doc <span class=\"doc\">(docs/dashboards.md#runbook-links)</span>"), html);
        assertTrue(html.contains("a mail."), html);
        assertEquals(2, linkingTags(html).size(), "the two links, and what the hostile test looks for: " + html);
        assertTrue(
                html.contains("<ol>\n<li>First step:\n<pre><code>jcmd &lt;pid&gt; JFR.start\n</code></pre>\n"
                        + "then more.</li>\n<li>Second</li>\n</ol>"),
                html);
        assertTrue(html.contains("<ul>\n<li>a</li>\n<li>b <code>x|y</code></li>\n</ul>"), html);
        assertTrue(html.contains("<th>col</th>\n<th>other</th>"), html);
        assertTrue(html.contains("<td><code>a|b</code></td>\n<td>c | d</td>"), html);
    }

    @Test
    void nothingInTheDocumentBecomesMarkup() {
        String hostile = "# <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
                + "[x](javascript:alert(1)) [y](\" onmouseover=\"alert(1)) [z](&#106;avascript:alert(1))"
                + " [w](<JavaScript:alert(1)>) ![v](data:image/svg+xml,<svg/onload=alert(1)>) `<b>`\n\n"
                + "```\n</code><script>\n```\n"
                + "| <i>a</i> |\n|---|\n| <svg/onload=alert(1)> |\n\n<div onclick=\"alert(1)\">\n\n*<u>x</u>*\n";
        String html = MarkdownHtml.render(hostile);
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<svg"), html);
        assertFalse(html.contains("<i>"), html);
        assertFalse(html.contains("<div"), html);
        assertFalse(html.contains("<u>"), html);
        assertFalse(html.toLowerCase(Locale.ROOT).contains("javascript:alert(1)\""), html);
        assertFalse(html.contains("href=\"\" onmouseover"), html);
        assertEquals(List.of(), linkingTags(html), html);
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"), html);
        assertTrue(html.contains("<pre><code>&lt;/code&gt;&lt;script&gt;\n</code></pre>"), html);
    }

    /**
     * The two raw-HTML forms the findings pages use pass only whole and exact: an empty anchor with
     * a plain id, and a details block with a text summary. Anything near them stays text.
     */
    @Test
    void onlyTheFindingsPagesAnchorsAndDetailsPass() {
        String html =
                MarkdownHtml.render("<!-- generated: do not edit -->\n\n<a id=\"fuzzy-row-filter\"></a>\n\n## Title\n\n"
                        + "<details><summary>Draft & report</summary>\n\nbody\n\n</details>\n\n"
                        + "[other](hbase-findings-security.md#access-control-filter) [bad](hbase-findings.md#a\"b)"
                        + " [up](../hbase-findings.md)\n");
        assertTrue(
                html.startsWith("\n<p><a id=\"fuzzy-row-filter\"></a></p>")
                        || html.startsWith("<p><a id=\"fuzzy-row-filter\"></a></p>"),
                "the comment is left out: " + html);
        assertTrue(html.contains("<details><summary>Draft &amp; report</summary>"), html);
        assertTrue(html.contains("</details>"), html);
        assertTrue(html.contains("<a href=\"findings-security#access-control-filter\">other</a>"), html);
        assertFalse(html.contains("href=\"findings#a"), "a fragment with a quote is no link: " + html);
        assertFalse(html.contains("href=\"../"), html);

        String hostile = MarkdownHtml.render("<a id=\"x\" onclick=\"alert(1)\"></a>\n\n"
                + "<a id=\"y\">click</a>\n\n<a href=\"javascript:alert(1)\"></a>\n\n<a id=\"Z Z\"></a>\n\n"
                + "<details open ontoggle=\"alert(1)\"><summary>s</summary>\n\n"
                + "<details><summary><img src=x onerror=alert(1)></summary>\n\n</a>\n");
        assertEquals(List.of(), linkingTags(hostile), hostile);
        assertFalse(hostile.contains("<a id=\"x\"") || hostile.contains("<a id=\"y\""), hostile);
        assertFalse(hostile.contains("<img") || hostile.contains("<details open"), hostile);
        assertFalse(hostile.replace("<details>", "").contains("<details"), hostile);
        assertTrue(hostile.contains("&lt;a id=&quot;y&quot;&gt;click&lt;/a&gt;"), hostile);
    }

    /** Tags (the document's own '<' are all escaped) with a link, a source or an event handler. */
    private static List<String> linkingTags(String html) {
        Matcher tag =
                Pattern.compile("(?i)<[^>]*\\s(href|src|on\\w+)\\s*=[^>]*>").matcher(html);
        List<String> found = new ArrayList<>();
        while (tag.find()) {
            found.add(tag.group());
        }
        return found;
    }
}
