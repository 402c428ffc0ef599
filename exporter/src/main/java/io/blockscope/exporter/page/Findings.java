package io.blockscope.exporter.page;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The link from a copying or leaking site to the HBase finding that names it, on the findings pages
 * the endpoint serves ({@link Documents#FINDINGS}, {@link Documents#FINDINGS_SECURITY}, {@link
 * Documents#FINDINGS_LEAKS}). The map is read from those
 * pages (each finding's anchor and its "Source line (as the agent names it)"), so it cannot drift from
 * them.
 */
final class Findings {

    /** A finding the page can link to: where it is and its title. */
    static final class Link {
        /** Relative to the endpoint's root ({@code findings#fuzzy-row-filter}), as the page links it. */
        final String href;

        final String title;

        Link(String href, String title) {
            this.href = href;
            this.title = title;
        }

        /** The link as the live page shows it, escaped. */
        String html() {
            return "<a class=\"finding\" href=\"" + Html.escape(href) + "\">finding: " + Html.escape(title) + "</a>";
        }
    }

    private static final Pattern ANCHOR = Pattern.compile("^<a id=\"([a-z0-9-]+)\"></a>$");
    /** A copy finding's "Source line (as the agent names it)", a leak finding's "Site the agent names". */
    private static final Pattern SOURCE_LINE = Pattern.compile(
            "^- \\*\\*(?:Source line\\*\\* \\(as the agent names it\\):|Site the agent names:\\*\\*) (.+)$");
    /** A site in backticks: a class and method, no spaces (not the other code the bullet quotes). */
    private static final Pattern CODE = Pattern.compile("`([^`\\s]+\\.[^`\\s]+)`");

    private Findings() {}

    /** The finding that names {@code site} ({@code Class.method:line}; matched without the line), or null. */
    static Link forSite(String site) {
        return Sites.BY_SITE.get(CopyAdvice.withoutLine(site));
    }

    /** The leak finding whose leaked buffers were taken at {@code site} (matched without the line), or null. */
    static Link forLeakSite(String site) {
        return LeakSites.BY_SITE.get(CopyAdvice.withoutLine(site));
    }

    /** Every copying site (without its line) the packaged findings name, with its finding. */
    static Map<String, Link> all() {
        return Sites.BY_SITE;
    }

    /**
     * The sites each finding of {@code markdown} names, each with the finding's anchor on {@code path}
     * and its heading: a finding is an {@code <a id>} line, its {@code ##} heading, and a "Source line"
     * bullet listing the sites in backticks.
     */
    static Map<String, Link> sites(String markdown, String path) {
        Map<String, Link> sites = new LinkedHashMap<>();
        String anchor = null;
        String title = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher a = ANCHOR.matcher(line.strip());
            if (a.matches()) {
                anchor = a.group(1);
                title = null;
                continue;
            }
            if (anchor != null && title == null && line.startsWith("## ")) {
                title = line.substring(3).strip();
                continue;
            }
            Matcher source = SOURCE_LINE.matcher(line.strip());
            if (anchor != null && title != null && source.matches()) {
                Matcher code = CODE.matcher(source.group(1));
                while (code.find()) {
                    sites.putIfAbsent(
                            CopyAdvice.withoutLine(code.group(1)), new Link(path.substring(1) + "#" + anchor, title));
                }
            }
        }
        return sites;
    }

    /** Holder: the site map is read when the live page first shows a site. */
    private static final class Sites {
        static final Map<String, Link> BY_SITE;

        static {
            Map<String, Link> all = new LinkedHashMap<>();
            for (PackagedPage page : List.of(Documents.FINDINGS, Documents.FINDINGS_SECURITY)) {
                sites(page.markdown(), page.path).forEach(all::putIfAbsent);
            }
            BY_SITE = Collections.unmodifiableMap(all);
        }
    }

    /** Holder: the leak page's sites, read when the live page first shows a leak. */
    private static final class LeakSites {
        static final Map<String, Link> BY_SITE =
                Collections.unmodifiableMap(sites(Documents.FINDINGS_LEAKS.markdown(), Documents.FINDINGS_LEAKS.path));
    }
}
