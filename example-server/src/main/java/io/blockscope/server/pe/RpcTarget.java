package io.blockscope.server.pe;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.rpc.RpcClient;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A running server, read over RPC. Its read path and deploy come from its {@code /status}; its GC
 * and allocation are read from there too, so costs are charged to the server, not to this client.
 */
final class RpcTarget implements ReadTarget {

    private final RpcClient client;
    private final String table;
    private final long rows;
    private final String readPath;
    private final String deploy;

    RpcTarget(URI url, String requestedTable, Duration timeout) throws Exception {
        this.client = new RpcClient(url, timeout);
        JsonNode status;
        try {
            // Settled, so the server's JFR GC reader starts now, before anything is measured: a JVM
            // whose dependencies the JIT has not recorded (no agent that may retransform, loaded at
            // start-up) throws away all its compiled code at JFR's first retransformation.
            status = client.statusWithSettledGc();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(
                    "cannot reach the server at " + url + " (" + e.getMessage()
                            + "); start one with: serve --port 0, and pass the URL it prints",
                    e);
        }
        JsonNode server = status.path("server");
        this.readPath = server.path("readPath").asText("unknown");
        this.deploy = server.path("deploy").asText("unknown");
        JsonNode chosen = null;
        List<String> names = new ArrayList<>();
        for (JsonNode t : status.path("tables")) {
            names.add(t.path("name").asText());
            if (requestedTable == null
                    ? chosen == null
                    : t.path("name").asText().equals(requestedTable)) {
                chosen = t;
            }
        }
        if (chosen == null) {
            throw new IllegalArgumentException(
                    requestedTable == null
                            ? "the server at " + url + " serves no table"
                            : "the server at " + url + " has no table '" + requestedTable + "'; it serves " + names);
        }
        this.table = chosen.path("name").asText();
        this.rows = chosen.path("rows").asLong();
    }

    @Override
    public String readPath() {
        return readPath;
    }

    @Override
    public String deploy() {
        return deploy;
    }

    @Override
    public String url() {
        return client.base().toString();
    }

    @Override
    public long tableRows() {
        return rows;
    }

    @Override
    public String loadIntoCache() throws Exception {
        // A full scan that returns nothing reads every block through the server's cache.
        RpcClient.Scan all = RpcClient.Scan.range(new byte[0], new byte[0]).withFilter("all");
        String continuation = null;
        do {
            continuation = client.scan(table, all, continuation, false).continuation();
        } while (continuation != null);
        JsonNode cache = client.status().path("cache");
        return "server cache: " + cache.path("summary").asText("(no summary)");
    }

    @Override
    public Session newSession(WorkloadShape shape, long seed) {
        if (shape.rowLimit() != 0) {
            throw new IllegalArgumentException("loadings (a row limit) run in-process only, not over RPC");
        }
        return switch (shape.workload()) {
            case MULTIGET, RANDOM_READ -> new GetSession(shape.rowsPerOp(), seed);
            case SCAN_RANGE, SCAN_10PCT -> new ScanSession(shape.scanRows(), shape.filter(), seed);
        };
    }

    @Override
    public CostSnapshot cost(boolean settleGc) throws Exception {
        JsonNode status = settleGc ? client.statusWithSettledGc() : client.status();
        JsonNode jvm = status.path("jvm");
        JsonNode stats = status.path("cache").path("stats");
        Map<String, GcPauses.Pause> pauses = new TreeMap<>();
        jvm.path("gcPauses")
                .fields()
                .forEachRemaining(e -> pauses.put(
                        e.getKey(),
                        new GcPauses.Pause(
                                e.getValue().path("count").asLong(),
                                e.getValue().path("seconds").asDouble())));
        return new CostSnapshot(
                new GcPauses.Reading(
                        jvm.path("gcSource").asText("none"),
                        jvm.path("gcSettled").asBoolean(false),
                        pauses),
                jvm.path("allocatedBytes").asLong(-1),
                stats.path("requests").asLong(),
                stats.path("misses").asLong());
    }

    @Override
    public boolean countsWorkerAllocation() {
        return false;
    }

    @Override
    public long outstandingBlockReferences() throws Exception {
        return client.status().path("blockRefsOutstanding").asLong(-1);
    }

    @Override
    public void close() {}

    private final class GetSession implements Session {
        private final int batch;
        private final SplittableRandom random;
        private long returned;

        GetSession(int batch, long seed) {
            this.batch = batch;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public long execute() throws Exception {
            RpcClient.Reply reply;
            if (batch == 1) {
                reply = client.get(table, TableSpec.rowKey(random.nextLong(rows)), false);
            } else {
                List<byte[]> keys = new ArrayList<>(batch);
                for (int i = 0; i < batch; i++) {
                    keys.add(TableSpec.rowKey(random.nextLong(rows)));
                }
                reply = client.multiGet(table, keys, false);
            }
            returned += Math.max(0, reply.rows());
            return batch;
        }

        @Override
        public long rowsReturned() {
            return returned;
        }
    }

    private final class ScanSession implements Session {
        private final int length;
        private final String filter;
        private final SplittableRandom random;
        private long returned;

        ScanSession(int length, String filter, long seed) {
            this.length = length;
            this.filter = filter;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public long execute() throws Exception {
            long first = random.nextLong(Math.max(1, rows - length + 1));
            RpcClient.Scan scan = RpcClient.Scan.range(TableSpec.rowKey(first), TableSpec.rowKey(first + length))
                    .withFilter(filter)
                    .withLimit(length);
            long scanned = 0;
            String continuation = null;
            do {
                RpcClient.Reply reply = client.scan(table, scan, continuation, false);
                scanned += Math.max(0, reply.rowsScanned());
                returned += Math.max(0, reply.rows());
                continuation = reply.continuation();
            } while (continuation != null);
            return scanned;
        }

        @Override
        public long rowsReturned() {
            return returned;
        }
    }
}
