package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.exporter.testing.RawHttp;
import io.blockscope.server.filter.EvenRowsFilter;
import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.region.TestTable;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, findings 3 and 4, against servers in their own JVMs: a scan response reads at most
 * --max-scan-rows-examined rows and --max-scan-bytes-examined bytes (filtered rows count too), the
 * rest by continuation; one row larger than the byte bound is a 400 naming the option; class:
 * filters are refused (403, naming --allow-filter-classes) unless listed; multi-get bodies are
 * bounded in rows, nesting and size before they cost memory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanLimitsTest {

    private static final int ROWS_EXAMINED = 100;
    private static final int BYTES_EXAMINED = 256 * 1024;

    @TempDir
    static Path dir;

    private ServerProcess bounded;
    private ServerProcess allowing;

    @BeforeAll
    void start() throws Exception {
        TestTable.load(dir, TestTable.smallSpec());
        // 4 rows of one 300 KB value: each row alone is larger than the byte bound.
        TableLoader.load(
                dir, new TableSpec("wide", 4, 1, 300_000, ValueDistribution.FIXED, 3, 5), 65536, 1, line -> {});
        bounded = ServerProcess.start(
                dir,
                "128m",
                "--data",
                dir.toString(),
                "--max-scan-rows-examined",
                Integer.toString(ROWS_EXAMINED),
                "--max-scan-bytes-examined",
                BYTES_EXAMINED + "",
                "--max-multiget",
                "50");
        allowing = ServerProcess.start(
                dir, "128m", "--data", dir.toString(), "--allow-filter-classes", EvenRowsFilter.class.getName());
    }

    @AfterAll
    void stop() throws Exception {
        bounded.close();
        allowing.close();
    }

    @AfterEach
    void nothingHeld() throws Exception {
        assertEquals(0, bounded.awaitNoOutstandingReferences());
        assertEquals(0, allowing.awaitNoOutstandingReferences());
    }

    @Test
    void aFilterAllScanReadsAtMostTheBoundPerResponseAndFinishesByContinuation() throws Exception {
        List<RpcClient.Reply> pages = bounded.client()
                .scanAll(
                        TestTable.NAME,
                        RpcClient.Scan.range(new byte[0], new byte[0]).withFilter("all"));
        long scanned = 0;
        for (RpcClient.Reply page : pages) {
            // rows here are under 1 KB, so the row bound (100) acts before the byte bound (256 KB)
            assertTrue(page.rowsScanned() <= ROWS_EXAMINED, "a page read " + page.rowsScanned() + " rows");
            scanned += page.rowsScanned();
        }
        assertEquals(2_000, scanned, "every row is read, over " + pages.size() + " pages");
        assertTrue(pages.size() >= 2_000 / ROWS_EXAMINED, "pages: " + pages.size());
    }

    @Test
    void aRowLargerThanTheByteBoundIsA400NamingTheOption() throws Exception {
        HttpResponse<String> r = raw(bounded, "GET", "/v1/wide/scan?format=json", null);
        assertEquals(400, r.statusCode(), r.body());
        JsonNode error = new ObjectMapper().readTree(r.body());
        assertEquals("scan_limit", error.path("error").asText());
        assertTrue(error.path("message").asText().contains("--max-scan-bytes-examined"), r.body());
        assertTrue(error.path("message").asText().contains("raise that serve option"), r.body());
    }

    @Test
    void classFiltersAreOffUnlessListed() throws Exception {
        String spec = "class:" + EvenRowsFilter.class.getName();
        HttpResponse<String> refused = raw(bounded, "GET", "/v1/t/scan?limit=10&filter=" + spec, null);
        assertEquals(403, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("--allow-filter-classes " + EvenRowsFilter.class.getName()));

        HttpResponse<String> ok = raw(allowing, "GET", "/v1/t/scan?limit=10&format=json&filter=" + spec, null);
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(10, new ObjectMapper().readTree(ok.body()).path("rowCount").asInt());

        // listed is not the same as anything: another Filter on the class path stays refused
        HttpResponse<String> other =
                raw(allowing, "GET", "/v1/t/scan?limit=10&filter=class:io.blockscope.server.filter.FilterAll", null);
        assertEquals(403, other.statusCode(), other.body());
        assertTrue(other.body().contains("allowed: " + EvenRowsFilter.class.getName()), other.body());
    }

    @Test
    void multiGetBodiesAreBoundedBeforeTheyCostMemory() throws Exception {
        StringBuilder many = new StringBuilder("{\"rows\":[");
        for (int i = 0; i < 5_000; i++) {
            many.append(i == 0 ? "\"r" : ",\"r").append(i).append('"');
        }
        many.append("]}");
        HttpResponse<String> tooMany = raw(bounded, "POST", "/v1/t/multiget", many.toString());
        assertEquals(400, tooMany.statusCode(), tooMany.body());
        assertTrue(tooMany.body().contains("exceeds the limit of 50 rows"), tooMany.body());

        String deep = "{\"rows\":" + "[".repeat(500) + "]".repeat(500) + "}";
        HttpResponse<String> nested = raw(bounded, "POST", "/v1/t/multiget", deep);
        assertEquals(400, nested.statusCode(), nested.body());

        // 2 MB announced: refused on Content-Length before a byte of the body is read (a client still
        // sending would race the server's close, so only the headers are sent)
        RawHttp.Answer large = RawHttp.send(
                null,
                bounded.uri().getPort(),
                RawHttp.bytes("POST /v1/t/multiget HTTP/1.1\r\nHost: x\r\nContent-Length: " + (2 << 20) + "\r\n\r\n"),
                5_000);
        assertEquals(413, large.status, large.text);
        assertTrue(bounded.isAlive());
    }

    private static HttpResponse<String> raw(ServerProcess server, String method, String path, String body)
            throws Exception {
        HttpRequest.BodyPublisher publisher =
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return server.client()
                .raw(server.client().request(path).method(method, publisher).build());
    }
}
