package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.region.ReadResult;
import io.blockscope.server.region.Tables;
import java.io.IOException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The read endpoints: each parses its request completely (so a bad one costs nothing and leaks
 * nothing), runs it against the region under the request's deadline, and hands the result to the
 * response writer, which owns it from then on.
 */
final class Reads {

    private final Tables tables;
    private final RpcLimits limits;
    private final ClassLoader filterLoader;
    private final FilterClasses filterClasses;
    private final RpcResponses responses;
    private final RpcMetrics metrics;

    Reads(
            Tables tables,
            RpcLimits limits,
            ClassLoader filterLoader,
            FilterClasses filterClasses,
            RpcResponses responses,
            RpcMetrics metrics) {
        this.tables = tables;
        this.limits = limits;
        this.filterLoader = filterLoader;
        this.filterClasses = filterClasses;
        this.responses = responses;
        this.metrics = metrics;
    }

    void get(Request request, Response response, Callback callback) throws IOException {
        GetRequest get = GetRequest.parse(request, tables);
        ReadResult result = get.region().get(get.row(), deadline(request));
        responses.result(request, response, callback, get.region().name(), result, get.keys(), get.json(), null);
    }

    void multiGet(Request request, Response response, Callback callback) throws IOException {
        MultiGetRequest multiGet = MultiGetRequest.parse(request, tables, limits);
        byte[][] rows = multiGet.rows();
        ReadResult result = multiGet.region().multiGet(rows, rows.length, deadline(request));
        responses.result(
                request, response, callback, multiGet.region().name(), result, multiGet.keys(), multiGet.json(), null);
    }

    void scan(Request request, Response response, Callback callback) throws IOException {
        ScanRequest scan = ScanRequest.parse(request, tables, limits, filterLoader, filterClasses);
        ReadResult result = scan.region().scan(scan.spec(limits), deadline(request));
        String continuation = scan.continuation(result);
        if (continuation != null) {
            metrics.partialScan();
        }
        responses.result(
                request, response, callback, scan.region().name(), result, scan.keys(), scan.json(), continuation);
    }

    private long deadline(Request request) {
        return request.getHeadersNanoTime() + limits.requestTimeout().toNanos();
    }
}
