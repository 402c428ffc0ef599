package io.blockscope.exporter.page;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.HtmlWriter;

/**
 * docs/runbooks.md as HTML, with commonmark-java (see the exporter's pom): CommonMark, GitHub's tables,
 * and the heading ids GitHub gives (lower case, punctuation dropped, spaces as hyphens, a repeated
 * heading numbered -1, -2), which the alerts' runbook_url ends in. Raw HTML in the document is shown as
 * text, never passed through; only {@code #anchor} and http(s) links become links.
 */
final class MarkdownHtml {

    private static final List<Extension> EXTENSIONS =
            List.of(TablesExtension.create(), HeadingAnchorExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder()
            .extensions(EXTENSIONS)
            .escapeHtml(true)
            .sanitizeUrls(true)
            .nodeRendererFactory(SafeLinks::new)
            .nodeRendererFactory(AnchorsAndDetails::new)
            .build();

    /**
     * The documents this endpoint serves, by their file name in docs/: a relative link to one of them
     * becomes a link to its path here (relative, so it works behind any prefix).
     */
    private static final Map<String, String> SERVED =
            Documents.ALL.stream().collect(Collectors.toUnmodifiableMap(d -> d.resource, d -> d.path.substring(1)));

    /** A section's fragment: only what a heading id or a generated anchor is made of. */
    private static final Pattern FRAGMENT = Pattern.compile("#[A-Za-z0-9_-]*");

    private MarkdownHtml() {}

    /** The document as HTML (a sequence of block elements). The caller keeps the result: see PackagedPage. */
    static String render(String markdown) {
        return RENDERER.render(PARSER.parse(markdown));
    }

    /**
     * Links and images: a section of this page or an absolute http(s) address becomes a link (an image
     * too: the page loads nothing from elsewhere). A relative path is one of the other documents, which
     * has nothing to open here: its text stays, with the document named. Any other scheme: text only.
     */
    private static final class SafeLinks implements NodeRenderer {

        private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

        private final HtmlNodeRendererContext context;
        private final HtmlWriter html;

        SafeLinks(HtmlNodeRendererContext context) {
            this.context = context;
            this.html = context.getWriter();
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(Link.class, Image.class);
        }

        @Override
        public void render(Node node) {
            String target = node instanceof Link ? ((Link) node).getDestination() : ((Image) node).getDestination();
            String lower = target.toLowerCase(Locale.ROOT);
            String served = served(target);
            if (lower.startsWith("#") || lower.startsWith("https://") || lower.startsWith("http://")) {
                html.tag("a", Map.of("href", context.encodeUrl(target)));
                children(node);
                html.tag("/a");
            } else if (served != null && node instanceof Link) {
                html.tag("a", Map.of("href", served));
                children(node);
                html.tag("/a");
            } else if (!SCHEME.matcher(target).find() && !target.startsWith("//")) {
                children(node);
                html.text(" ");
                html.tag("span", Map.of("class", "doc"));
                html.text("(docs/" + target + ")");
                html.tag("/span");
            } else {
                children(node);
            }
        }

        private void children(Node node) {
            for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
                context.render(child);
            }
        }

        /** {@code target}'s path on this endpoint when it is a document served here, else null. */
        private static String served(String target) {
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            String fragment = hash < 0 ? "" : target.substring(hash);
            String path = SERVED.get(file);
            return path != null
                            && (fragment.isEmpty() || FRAGMENT.matcher(fragment).matches())
                    ? path + fragment
                    : null;
        }
    }

    /**
     * The raw HTML the generated findings pages use, and nothing else: an empty anchor
     * ({@code <a id="name"></a>}, what their table of findings links to) and a collapsed section
     * ({@code <details><summary>text</summary>} ... {@code </details>}), matched whole, their text
     * escaped; a comment block is left out. Any other HTML is shown as text, as the core renderer shows it.
     */
    private static final class AnchorsAndDetails implements NodeRenderer {

        private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]{1,80})\">");
        private static final Pattern DETAILS = Pattern.compile("<details><summary>([^<>\n]{1,200})</summary>\\s*");
        private static final Pattern DETAILS_END = Pattern.compile("</details>\\s*");
        /** A comment on its own (the generated pages' "do not edit"): left out, as a browser would. */
        private static final Pattern COMMENT = Pattern.compile("(?s)<!--.*?-->\\s*");

        private final HtmlWriter html;

        AnchorsAndDetails(HtmlNodeRendererContext context) {
            this.html = context.getWriter();
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(HtmlInline.class, HtmlBlock.class);
        }

        @Override
        public void render(Node node) {
            if (node instanceof HtmlInline) {
                inline((HtmlInline) node);
                return;
            }
            String literal = ((HtmlBlock) node).getLiteral();
            if (COMMENT.matcher(literal).matches()) {
                return;
            }
            html.line();
            Matcher details = DETAILS.matcher(literal);
            if (details.matches()) {
                html.tag("details");
                html.tag("summary");
                html.text(details.group(1));
                html.tag("/summary");
            } else if (DETAILS_END.matcher(literal).matches()) {
                html.tag("/details");
            } else {
                html.tag("p");
                html.text(literal);
                html.tag("/p");
            }
            html.line();
        }

        private void inline(HtmlInline node) {
            Matcher anchor = ANCHOR.matcher(node.getLiteral());
            if (anchor.matches() && closes(node.getNext())) {
                html.tag("a", Map.of("id", anchor.group(1)));
                html.tag("/a");
            } else if (!(closes(node)
                    && node.getPrevious() instanceof HtmlInline
                    && ANCHOR.matcher(((HtmlInline) node.getPrevious()).getLiteral())
                            .matches())) {
                html.text(node.getLiteral()); // the closing tag of an anchor above is already written
            }
        }

        private static boolean closes(Node node) {
            return node instanceof HtmlInline && "</a>".equals(((HtmlInline) node).getLiteral());
        }
    }
}
