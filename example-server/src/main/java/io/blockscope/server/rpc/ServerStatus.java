package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The bodies of {@code GET /status} and {@code GET /v1/tables}: what the server serves, under which limits. */
final class ServerStatus {

    private final Tables tables;
    private final RpcLimits limits;
    private final FilterClasses filterClasses;
    private final Supplier<Map<String, Object>> statusSource;
    private final RpcMetrics metrics;

    ServerStatus(
            Tables tables,
            RpcLimits limits,
            FilterClasses filterClasses,
            Supplier<Map<String, Object>> statusSource,
            RpcMetrics metrics) {
        this.tables = tables;
        this.limits = limits;
        this.filterClasses = filterClasses;
        this.statusSource = statusSource;
        this.metrics = metrics;
    }

    /** @param settleGc PE's readings, which must see every GC pause up to the request ({@code ?gc=settled}) */
    Map<String, Object> status(boolean settleGc) {
        Map<String, Object> status = new LinkedHashMap<>(statusSource.get());
        status.put("blockRefsOutstanding", tables.outstandingBlockReferences());
        status.put("tables", tables());
        status.put("rpc", metrics.snapshot());
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("maxRequestBytes", limits.maxRequestBytes());
        l.put("maxMultiGetRows", limits.maxMultiGetRows());
        l.put("maxScanRows", limits.maxScanRows());
        l.put("maxResponseBytes", limits.maxResponseBytes());
        l.put("requestTimeoutMillis", limits.requestTimeout().toMillis());
        l.put("idleTimeoutMillis", limits.idleTimeout().toMillis());
        l.put("maxScanRowsExamined", limits.maxScanRowsExamined());
        l.put("maxScanBytesExamined", limits.maxScanBytesExamined());
        l.put("slowClientTimeoutMillis", limits.slowClientTimeout().toMillis());
        l.put("maxConnections", limits.maxConnections());
        l.put("maxConnectionsPerClient", limits.maxConnectionsPerClient());
        l.put("allowedFilterClasses", filterClasses.names());
        status.put("limits", l);
        status.put("jvm", JvmStatus.snapshot(settleGc));
        return status;
    }

    List<Map<String, Object>> tables() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Region region : tables.regions()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", region.name());
            t.put("rows", region.manifest().spec().rows());
            t.put("qualifiers", region.manifest().spec().qualifiers());
            t.put("valueSize", region.manifest().spec().valueSize());
            t.put("valueDist", region.manifest().spec().distribution().label());
            t.put("blockSize", region.manifest().blockSize());
            t.put("storeFiles", region.manifest().storeFiles());
            list.add(t);
        }
        return list;
    }
}
