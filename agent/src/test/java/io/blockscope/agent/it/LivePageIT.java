package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.load.TableSpec;
import io.blockscope.server.rpc.RpcClient;
import io.blockscope.testsupport.HeadlessChromium;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser: the example server runs with the built agent, the demo's copying
 * filter scans and its leaking reader leaks, and headless Chromium (Debian's {@code chromium})
 * opens the agent's {@code /}. The assertions read the DOM after the page's own script has
 * refreshed it, i.e. what a person would see: the verdict, the filter's method as the top copy site
 * with a non-zero rate, the leaking reader's method in the leak table. A screenshot is saved to
 * {@code target/live-page.png} (the one in docs/images/ comes from here).
 */
class LivePageIT {

    private static final String FILTER = "io.blockscope.server.demo.CopyingValueFilter";
    private static final Pattern COPY_ROW = Pattern.compile(
            "<tr class=\"site\"><td class=\"name\">([^<]*)</td><td class=\"num rate\" data-bytes-per-second=\"(\\d+)\">");
    private static final Pattern LEAK_ROW =
            Pattern.compile("<tr class=\"leak\"><td class=\"name\">([^<]*)</td><td>([a-z ]+)</td><td>([a-z]+)</td>"
                    + "<td class=\"num count\">([0-9,]+)</td>");

    @TempDir
    Path dir;

    @Test
    void chromiumShowsTheCopySiteAndTheLeak() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.in(dir);
        Path control = dir.resolve("demo-control");
        try (ChildJvm server = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,leak.sample=1,leak.rate=0,leak.age=2s,copy.sample=16")
                .jvmOption("-XX:MaxDirectMemorySize=256m")
                .classPath(ServerRpcIT.serverJar() + File.pathSeparator + ChildJvm.classPath())
                .start(
                        "io.blockscope.server.cli.Main",
                        "serve",
                        "--rows",
                        "3000",
                        "--port",
                        "0",
                        "--value-size",
                        "1000",
                        "--l2-size",
                        "64m",
                        "--l1-size",
                        "16m",
                        "--demo-control",
                        control.toString(),
                        "--allow-filter-classes",
                        FILTER)) {
            String url = server.awaitOut(Pattern.compile("blockscope-example-server listening on (http://\\S+)"));
            int agentPort =
                    Integer.parseInt(server.awaitErr(Pattern.compile("metrics at http://[^:]+:(\\d+)/metrics")));
            String page = "http://127.0.0.1:" + agentPort + "/";

            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread load = new Thread(() -> scanWithTheCopyingFilter(url, stop, failure), "copying-scans");
            load.start();
            try {
                Files.writeString(control, "leak=on\nleak.one-in=5\nleak.blocks-per-second=100\n");
                // Someone opened the page: it samples from now on, every 2 s.
                assertEquals(200, get(page));
                server.awaitErr(Pattern.compile("\\[demo\\] leaking reader on"));
                Thread.sleep(7_000);

                String dom = chromium.run("--virtual-time-budget=5000", "--dump-dom", page);
                assertTrue(failure.get() == null, "the copying scans failed: " + failure.get());
                Matcher refreshes = Pattern.compile("data-refreshes=\"(\\d+)\"").matcher(dom);
                assertTrue(
                        refreshes.find() && Integer.parseInt(refreshes.group(1)) >= 1,
                        "the page's script refreshed it at least once\n" + dom);
                assertTrue(dom.contains("data-verdict=\"copying_and_leaking\""), dom);

                Matcher copy = COPY_ROW.matcher(dom);
                assertTrue(copy.find(), "a copy site row\n" + dom);
                assertTrue(copy.group(1).startsWith(FILTER + ".filterCell:"), "the top copy site: " + copy.group(1));
                assertTrue(Long.parseLong(copy.group(2)) > 0, "a non-zero copy rate: " + copy.group(0));

                Matcher leak = LEAK_ROW.matcher(dom);
                assertTrue(leak.find(), "a leak row\n" + dom);
                assertTrue(
                        leak.group(1).startsWith("io.blockscope.server.demo.LeakingReader.checkOut:"),
                        "the acquiring site: " + leak.group(1));
                assertEquals("block", leak.group(2), "what leaked: " + leak.group(0));
                assertTrue(Long.parseLong(leak.group(4).replace(",", "")) > 0, leak.group(0));

                // The example server's profile has no context probes: the page says nothing of tables
                // or users. Its JVM (JDK 17, JFR) measures allocation: the copies have a real price.
                assertFalse(dom.contains("id=\"owners\"") || dom.contains("copying most on this server"), dom);
                Matcher share = Pattern.compile("<b id=\"copy-share\">([0-9.]+)%</b> of this server's heap allocation")
                        .matcher(dom);
                assertTrue(share.find(), "the copies' share of heap allocation\n" + dom);
                double percent = Double.parseDouble(share.group(1));
                assertTrue(percent > 0 && percent <= 150, "a share JFR's estimate can give: " + percent);
                assertTrue(dom.matches("(?s).*<td class=\"num share\"[^>]*>[0-9.]+%</td>.*"), "per site\n" + dom);
                assertFalse(dom.contains("NaN") || dom.contains("Infinity"), dom);
                System.out.println("[LivePageIT] " + share.group() + " | "
                        + dom.replaceAll("(?s).*(<section id=\"price\">.*?</section>).*", "$1")
                                .replaceAll("<[^>]+>", ""));

                // The copy site is the application's: its row links the runbook's zero-copy calls, which the
                // agent jar serves itself (docs/runbooks.md, packaged and relocated with the exporter).
                Matcher link = Pattern.compile("<a href=\"([^\"]+)\">zero-copy calls \\(runbook\\)</a>")
                        .matcher(dom);
                assertTrue(link.find(), "a runbook link\n" + dom);
                URI runbook = URI.create(page).resolve(link.group(1));
                String runbooks = chromium.run("--dump-dom", runbook.toString());
                assertTrue(
                        runbooks.contains("<h2 id=\"" + runbook.getFragment() + "\">BlockscopeHotCopyPath</h2>"),
                        runbook + " has no such section\n" + runbooks);

                // The HBase findings the page links a site to are in the agent jar too (packaged and
                // relocated with the exporter), each finding at its anchor.
                String findings = chromium.run("--dump-dom", page + "findings#fuzzy-row-filter");
                assertTrue(findings.contains("<a id=\"fuzzy-row-filter\"></a>"), findings);
                String security = chromium.run("--dump-dom", page + "findings-security");
                assertTrue(security.contains("<a id=\"access-control-filter\"></a>"), security);

                Path png = Path.of("target", "live-page.png").toAbsolutePath();
                Files.deleteIfExists(png);
                chromium.run("--window-size=1280,760", "--virtual-time-budget=3000", "--screenshot=" + png, page);
                byte[] image = Files.readAllBytes(png);
                assertTrue(image.length > 20_000, "a screenshot with content: " + image.length + " bytes");
                assertEquals((byte) 0x89, image[0]);
                assertEquals('P', image[1]);
            } finally {
                stop.set(true);
                load.join(30_000);
            }
        }
    }

    /** Scans over RPC with the copying filter until told to stop. */
    private static void scanWithTheCopyingFilter(String url, AtomicBoolean stop, AtomicReference<Throwable> failure) {
        try {
            RpcClient client = new RpcClient(URI.create(url), Duration.ofSeconds(30));
            while (!stop.get()) {
                client.scanAll(
                        "TestTable",
                        RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(3000))
                                .withFilter("class:" + FILTER));
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private static int get(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
