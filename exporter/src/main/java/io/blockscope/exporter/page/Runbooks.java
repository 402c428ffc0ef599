package io.blockscope.exporter.page;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /runbooks}: docs/runbooks.md (packaged with the exporter at build time) as one HTML page, so
 * the live page's runbook link and the alerts' runbook_url can point at the agent itself, which a
 * RegionServer's network reaches when no public site is. Each alert's section keeps the anchor
 * GitHub gives it ({@code #blockscopehotcopypath}), the one the alerts link to.
 */
final class Runbooks {

    static final String PATH = "/runbooks";
    /** The packaged copy of docs/runbooks.md (see the exporter's pom). */
    static final String RESOURCE = "runbooks.md";

    private static final String STYLE = "body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232a}"
            + "header{padding:8px 16px;background:#1d232a;color:#fff}header a{color:#9cf;margin-right:1em}"
            + "main{max-width:60em;padding:0 16px 32px}h2{border-top:1px solid #ddd;padding-top:12px}"
            + "code{font-family:ui-monospace,monospace;background:#f1f3f4;padding:0 2px;word-break:break-word}"
            + "pre{background:#f1f3f4;padding:8px;overflow-x:auto}pre code{padding:0}"
            + "table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:3px 6px;"
            + "border:1px solid #ddd}.doc{color:#5f6368}:target{background:#fef7e0}";

    private Runbooks() {}

    /** The page; rendered once, on the first request (a JVM whose runbooks nobody opens pays nothing). */
    static LivePage.Reply reply() {
        return new LivePage.Reply(200, "text/html; charset=utf-8", Rendered.PAGE);
    }

    /** The packaged Markdown. */
    static String markdown() {
        try (InputStream in = Runbooks.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not packaged with the exporter");
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                bytes.write(buffer, 0, n);
            }
            return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Holder: the rendering happens when the class is first used. */
    private static final class Rendered {
        static final byte[] PAGE = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                        + "<title>blockscope: runbooks</title><style>" + STYLE + "</style></head><body><header>"
                        + "<b>blockscope</b> runbooks <a href=\".\">live page</a><a href=\"metrics\">/metrics</a>"
                        + "</header><main>\n" + MarkdownHtml.render(markdown()) + "</main></body></html>\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
