package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.filter.EvenRowsFilter;
import io.blockscope.server.filter.ValueSampleFilter;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.region.TestTable;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers in JVMs of their own (zero-copy and copy read paths) serve a loaded table; gets,
 * multi-gets and scans over RPC must return exactly the loaded cells, and after every test each
 * server must hold no block reference.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RpcEndToEndTest {

    @TempDir
    static Path dir;

    private TableSpec spec;
    private final List<ServerProcess> servers = new ArrayList<>();

    @BeforeAll
    void startServers() throws Exception {
        spec = TestTable.smallSpec();
        TestTable.load(dir, spec);
        for (String mode : List.of("zero-copy", "copy")) {
            servers.add(ServerProcess.start(
                    dir,
                    "256m",
                    "--data",
                    dir.toString(),
                    "--allow-filter-classes",
                    "io.blockscope.server.filter.EvenRowsFilter",
                    "--deploy",
                    "cbc-offheap",
                    "--read-path",
                    mode,
                    "--max-scan-rows",
                    "700",
                    "--max-response-bytes",
                    "256k",
                    "--max-multiget",
                    "500"));
        }
    }

    @AfterEach
    void noReferenceIsLeft() throws Exception {
        for (ServerProcess server : servers) {
            assertEquals(0, server.awaitNoOutstandingReferences(), "block references outstanding on " + server.uri());
            assertTrue(server.isAlive());
        }
    }

    @AfterAll
    void stopServers() throws Exception {
        for (ServerProcess server : servers) {
            server.close();
        }
    }

    @Test
    void getsReturnExactlyTheLoadedRows() throws Exception {
        for (ServerProcess server : servers) {
            for (long row = 0; row < spec.rows(); row += 3) {
                RpcClient.Reply reply = server.client().get(TestTable.NAME, TableSpec.rowKey(row), true);
                assertEquals(TestTable.expectedRow(spec, row), reply.cells(), "row " + row + " from " + server.uri());
                assertEquals(1, reply.rows());
            }
            RpcClient.Reply missing =
                    server.client().get(TestTable.NAME, "no-such-row".getBytes(StandardCharsets.UTF_8), true);
            assertEquals(List.of(), missing.cells());
            assertEquals(0, missing.rows());
        }
    }

    @Test
    void multiGetsReturnRowsInRequestOrder() throws Exception {
        SplittableRandom random = new SplittableRandom(11);
        for (ServerProcess server : servers) {
            for (int batch = 0; batch < 10; batch++) {
                List<byte[]> keys = new ArrayList<>();
                List<ClientCell> expected = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    long row = random.nextLong(spec.rows() + 50); // some rows past the end: absent
                    keys.add(TableSpec.rowKey(row));
                    if (row < spec.rows()) {
                        expected.addAll(TestTable.expectedRow(spec, row));
                    }
                }
                RpcClient.Reply reply = server.client().multiGet(TestTable.NAME, keys, true);
                assertEquals(expected, reply.cells());
                assertEquals(100, reply.rowsScanned());
            }
        }
    }

    @Test
    void aFullScanComesInSeveralResponsesAndMissesNothing() throws Exception {
        for (ServerProcess server : servers) {
            List<RpcClient.Reply> replies =
                    server.client().scanAll(TestTable.NAME, RpcClient.Scan.range(new byte[0], new byte[0]));
            assertTrue(
                    replies.size() >= 3,
                    "2000 rows with at most 700 rows and 256 KB per response: got " + replies.size());
            List<ClientCell> cells = new ArrayList<>();
            for (RpcClient.Reply r : replies) {
                assertTrue(r.rows() <= 700);
                cells.addAll(r.cells());
            }
            assertEquals(TestTable.expectedRows(spec, 0, spec.rows()), cells);
            assertNull(replies.get(replies.size() - 1).continuation());

            RpcClient.Scan limited = RpcClient.Scan.range(TableSpec.rowKey(123), TableSpec.rowKey(1900))
                    .withLimit(250)
                    .withMaxBytes(4096);
            List<ClientCell> first250 = new ArrayList<>();
            List<RpcClient.Reply> pieces = server.client().scanAll(TestTable.NAME, limited);
            pieces.forEach(r -> first250.addAll(r.cells()));
            assertTrue(pieces.size() > 1, "4 KB per response cannot hold 250 rows");
            assertEquals(TestTable.expectedRows(spec, 123, 373), first250);
        }
    }

    @Test
    void filtersRunOnTheServer() throws Exception {
        ValueSampleFilter sample = new ValueSampleFilter(10);
        List<ClientCell> tenth = new ArrayList<>();
        for (long row = 100; row < 1600; row++) {
            byte[] value = spec.value(row, 0);
            if (value.length > 0 && sample.keeps(value[0])) {
                tenth.addAll(TestTable.expectedRow(spec, row));
            }
        }
        for (ServerProcess server : servers) {
            RpcClient.Scan range = RpcClient.Scan.range(TableSpec.rowKey(100), TableSpec.rowKey(1600));
            List<RpcClient.Reply> none = server.client().scanAll(TestTable.NAME, range.withFilter("all"));
            assertEquals(1, none.size());
            assertEquals(List.of(), none.get(0).cells());
            assertEquals(1500, none.get(0).rowsScanned());

            assertEquals(tenth, cells(server.client().scanAll(TestTable.NAME, range.withFilter("10pct"))));

            List<ClientCell> q1 = cells(server.client()
                    .scanAll(
                            TestTable.NAME,
                            RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(10))
                                    .withFilter("qualifier:1")));
            assertEquals(10, q1.size());
            assertEquals(TestTable.expectedRow(spec, 7).get(1), q1.get(7));

            List<ClientCell> even = cells(server.client()
                    .scanAll(
                            TestTable.NAME,
                            RpcClient.Scan.range(TableSpec.rowKey(0), TableSpec.rowKey(30))
                                    .withFilter("class:" + EvenRowsFilter.class.getName())));
            assertEquals(15 * spec.qualifiers(), even.size());
            assertEquals(TestTable.expectedRow(spec, 28), even.subList(14 * 3, 15 * 3));
        }
    }

    @Test
    void jsonIsAvailableForPeopleAndCurl() throws Exception {
        for (ServerProcess server : servers) {
            HttpResponse<String> response = server.client()
                    .raw(server.client()
                            .request("/v1/" + TestTable.NAME + "/get?row="
                                    + new String(TableSpec.rowKey(42), StandardCharsets.UTF_8))
                            .header("Accept", "application/json")
                            .GET()
                            .build());
            assertEquals(200, response.statusCode());
            JsonNode body = new ObjectMapper().readTree(response.body());
            assertEquals(1, body.path("rowCount").asInt());
            JsonNode cells = body.path("rows").get(0).path("cells");
            assertEquals(spec.qualifiers(), cells.size());
            for (int q = 0; q < spec.qualifiers(); q++) {
                assertEquals(String.valueOf(q), cells.get(q).path("qualifier").asText());
                assertEquals(spec.timestamp(), cells.get(q).path("timestamp").asLong());
                assertEquals(
                        Base64.getEncoder().encodeToString(spec.value(42, q)),
                        cells.get(q).path("value").asText());
            }
        }
    }

    @Test
    void statusReportsTheServerCacheAndZeroReferencesWhenIdle() throws Exception {
        for (ServerProcess server : servers) {
            server.client()
                    .scanAll(
                            TestTable.NAME,
                            RpcClient.Scan.range(new byte[0], new byte[0]).withFilter("all"));
            JsonNode status = server.status();
            String mode = servers.indexOf(server) == 0 ? "zero-copy" : "copy";
            assertEquals(mode, status.path("server").path("readPath").asText());
            assertEquals("cbc-offheap", status.path("server").path("deploy").asText());
            assertTrue(status.path("cache").path("l2").path("blockCount").asLong() > 0);
            assertTrue(status.path("cache").path("l2").path("bucketClasses").size() > 0);
            assertTrue(status.path("cache").path("stats").path("hits").asLong() > 0);
            assertEquals(spec.rows(), status.path("tables").get(0).path("rows").asLong());
            assertTrue(status.path("jvm").path("allocatedBytes").asLong() > 0);
            assertEquals(0, server.awaitNoOutstandingReferences());
        }
    }

    @Test
    void peMeasuresRunningServersOverRpc() throws Exception {
        Path json = dir.resolve("pe-rpc.json");
        int exit = io.blockscope.server.cli.Main.execute(
                "pe",
                "--target",
                servers.get(1).uri() + "," + servers.get(0).uri(),
                "--workload",
                "multiget,scanRange",
                "--threads",
                "2",
                "--ops",
                "12",
                "--rounds",
                "2",
                "--warmup",
                "0s",
                "--multiget-rows",
                "20",
                "--scan-rows",
                "300",
                "--no-progress",
                "--json",
                json.toString());
        assertEquals(0, exit);
        JsonNode records = new ObjectMapper().readTree(Files.readString(json)).path("records");
        assertEquals(4, records.size());
        for (JsonNode r : records) {
            assertTrue(r.path("target").asText().startsWith("http://127.0.0.1:"));
            assertEquals("server-jvm", r.path("allocSource").asText());
            assertEquals(12, r.path("ops").asLong());
            assertTrue(r.path("opsPerSec").asDouble() > 0);
        }
        assertEquals("copy", records.get(0).path("readPath").asText());
        assertEquals("zero-copy", records.get(1).path("readPath").asText());
        assertEquals(12 * 300, records.get(2).path("rowsRead").asLong(), "scanRange reads 300 rows per operation");
    }

    private static List<ClientCell> cells(List<RpcClient.Reply> replies) {
        List<ClientCell> cells = new ArrayList<>();
        replies.forEach(r -> cells.addAll(r.cells()));
        return cells;
    }
}
