package io.blockscope.exporter.page;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One document of docs/, packaged with the exporter at build time (see the exporter's pom), served as one
 * HTML page: read from the classpath and rendered on its first request, then kept, so a JVM whose pages
 * nobody opens pays nothing. Which documents there are, and the header linking them, is {@link Documents}.
 */
final class PackagedPage {

    private static final String STYLE = "body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232a}"
            + "header{padding:8px 16px;background:#1d232a;color:#fff}header a{color:#9cf;margin-right:1em}"
            + "main{max-width:64em;padding:0 16px 32px}h2{border-top:1px solid #ddd;padding-top:12px}"
            + "code{font-family:ui-monospace,monospace;background:#f1f3f4;padding:0 2px;word-break:break-word}"
            + "pre{background:#f1f3f4;padding:8px;overflow-x:auto}pre code{padding:0}"
            + "table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:3px 6px;"
            + "border:1px solid #ddd}.doc{color:#5f6368}:target{background:#fef7e0}"
            + "details{background:#f8f9fa;padding:4px 8px}";

    /** Where the endpoint serves it ({@code /runbooks}). */
    final String path;
    /** The packaged file, named as in docs/ ({@code runbooks.md}). */
    final String resource;

    private final String title;
    /** The header's links, after the page's title. */
    private final String nav;
    /** The rendered page; null until the first request. */
    private volatile byte[] body;

    PackagedPage(String path, String resource, String title, String nav) {
        this.path = path;
        this.resource = resource;
        this.title = title;
        this.nav = nav;
    }

    /** The packaged Markdown, as checked in. */
    String markdown() {
        try (InputStream in = PackagedPage.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not packaged with the exporter");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page; rendered once, on the first request. */
    LivePage.Reply reply() {
        byte[] page = body;
        if (page == null) {
            synchronized (this) {
                page = body;
                if (page == null) {
                    page = render();
                    body = page;
                }
            }
        }
        return new LivePage.Reply(200, "text/html; charset=utf-8", page);
    }

    private byte[] render() {
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                        + "<title>blockscope: " + title + "</title><style>" + STYLE + "</style></head><body><header>"
                        + "<b>blockscope</b> " + title + " " + nav + "</header><main>\n"
                        + MarkdownHtml.render(markdown()) + "</main></body></html>\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
