package io.blockscope.exporter.page;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
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
            .build();

    private MarkdownHtml() {}

    /** The document as HTML (a sequence of block elements). The caller keeps the result: see Runbooks. */
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
            if (lower.startsWith("#") || lower.startsWith("https://") || lower.startsWith("http://")) {
                html.tag("a", Map.of("href", context.encodeUrl(target)));
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
    }
}
