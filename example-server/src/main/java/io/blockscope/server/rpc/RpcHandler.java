package io.blockscope.server.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.filter.FilterNotAllowedException;
import io.blockscope.server.filter.FilterSpec;
import io.blockscope.server.region.ReadResult;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.RegionTimeoutException;
import io.blockscope.server.region.ScanLimitException;
import io.blockscope.server.region.ScanSpec;
import io.blockscope.server.region.Tables;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The RPC endpoints (see docs/rpc.md). Every request is parsed and checked completely before the
 * region is touched, so a bad one costs nothing and leaks nothing; once a read has produced a
 * result, the result is owned by the response writer, which releases its blocks when the write
 * completes or fails.
 */
final class RpcHandler extends Handler.Abstract {

    static final String ENDPOINTS = "GET /healthz, GET /status, GET /v1/tables, GET /v1/{table}/get?row=KEY, "
            + "POST /v1/{table}/multiget (or GET with repeated row=), GET /v1/{table}/scan?start=&stop=&limit=&filter=";
    private static final Set<String> GET_PARAMS = Set.of("row", "keyEncoding", "format");
    private static final Set<String> MULTIGET_PARAMS = Set.of("row", "keyEncoding", "format");
    private static final Set<String> SCAN_PARAMS =
            Set.of("start", "stop", "limit", "filter", "maxBytes", "continuation", "keyEncoding", "format");
    private static final String JSON_TYPE = Json.CONTENT_TYPE;
    private static final ObjectMapper MAPPER = Json.MAPPER;
    private static final String BODY_ATTRIBUTE = "io.blockscope.rpc.body";

    private final Tables tables;
    private final RpcLimits limits;
    private final Supplier<Map<String, Object>> statusSource;
    private final ClassLoader filterLoader;
    private final FilterClasses filterClasses;
    private final RpcMetrics metrics = new RpcMetrics();

    RpcHandler(
            Tables tables,
            RpcLimits limits,
            FilterClasses filterClasses,
            Supplier<Map<String, Object>> statusSource,
            ClassLoader filterLoader) {
        this.tables = tables;
        this.limits = limits;
        this.filterClasses = filterClasses;
        this.statusSource = statusSource;
        this.filterLoader = filterLoader;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        metrics.request();
        if (request.getMethod().equals("POST")
                && Request.getPathInContext(request).endsWith("/multiget")) {
            readBodyThenServe(request, response, callback);
        } else {
            serve(request, response, callback);
        }
        return true;
    }

    /**
     * Collects a request body without holding a thread: a slow (or stalled, or {@code Expect:
     * 100-continue}) sender only holds its connection, for at most --slow-client-timeout, and a
     * request thread is taken only once the whole body is here.
     */
    private void readBodyThenServe(Request request, Response response, Callback callback) {
        long declared = request.getLength();
        if (declared > limits.maxRequestBytes()) {
            metrics.error(413);
            RpcException e = tooLarge(declared);
            sendError(response, callback, e.status(), e.reason(), e.getMessage());
            return;
        }
        Scheduler.Task deadline = ConnectionGuards.deadline(request, limits.slowClientTimeout(), "sending the body");
        int max = (int) Math.min(limits.maxRequestBytes(), Integer.MAX_VALUE - 16);
        Content.Source.asByteArrayAsync(request, max).whenComplete((body, failure) -> {
            deadline.cancel();
            request.setAttribute(BODY_ATTRIBUTE, failure == null ? body : failure);
            request.getComponents().getExecutor().execute(() -> serve(request, response, callback));
        });
    }

    private void serve(Request request, Response response, Callback callback) {
        try {
            route(request, response, callback);
        } catch (RpcException e) {
            metrics.error(e.status());
            sendError(response, callback, e.status(), e.reason(), e.getMessage());
        } catch (IOException e) {
            metrics.error(500);
            sendError(
                    response,
                    callback,
                    500,
                    "read_failed",
                    "reading the table failed: " + e.getMessage() + "; the server keeps serving other requests");
            System.err.println("[blockscope] " + request.getMethod() + " " + request.getHttpURI() + ": " + e);
        } catch (RegionTimeoutException e) {
            metrics.timeout();
            metrics.error(503);
            sendError(response, callback, 503, "timeout", e.getMessage());
        } catch (ScanLimitException e) {
            metrics.error(400);
            sendError(
                    response,
                    callback,
                    400,
                    "scan_limit",
                    e.getMessage() + " (--max-scan-bytes-examined " + e.limit()
                            + "); raise that serve option to read this row");
        } catch (Exception e) {
            // Exception, not Throwable: an Error (OutOfMemoryError, StackOverflowError) is left to Jetty and
            // the JVM; every block a request holds is released in finally blocks, not here.
            if (e instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
                // Jetty's own parse errors, e.g. bad percent-encoding in the query string
                metrics.error(http.getCode());
                sendError(
                        response,
                        callback,
                        http.getCode(),
                        "bad_request",
                        "malformed request (" + http.getReason()
                                + "): check the percent-encoding of the query string, or pass keys with keyEncoding=hex");
                return;
            }
            metrics.error(500);
            sendError(
                    response,
                    callback,
                    500,
                    "internal_error",
                    "the server failed on this request (" + e + "); it keeps serving, and the server log has details");
            System.err.println(
                    "[blockscope] request " + request.getMethod() + " " + request.getHttpURI() + " failed: " + e);
        }
    }

    private void route(Request request, Response response, Callback callback) throws IOException {
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        if (path.equals("/healthz")) {
            requireMethod(method, "GET", path);
            sendBytes(
                    response,
                    callback,
                    200,
                    "text/plain; charset=utf-8",
                    "ok\n".getBytes(StandardCharsets.UTF_8),
                    null);
            return;
        }
        if (path.equals("/status")) {
            requireMethod(method, "GET", path);
            // ?gc=settled: PE's readings, which must see every GC pause up to the request
            boolean settleGc = "settled"
                    .equals(Request.extractQueryParameters(request, StandardCharsets.UTF_8)
                            .getValue("gc"));
            sendJson(response, callback, 200, status(settleGc));
            return;
        }
        if (path.equals("/v1/tables")) {
            requireMethod(method, "GET", path);
            sendJson(response, callback, 200, Map.of("tables", tablesJson()));
            return;
        }
        String[] parts = path.split("/", -1);
        if (parts.length != 4 || !parts[0].isEmpty() || !parts[1].equals("v1")) {
            throw RpcException.notFound("no endpoint " + method + " " + path + "; endpoints: " + ENDPOINTS);
        }
        String op = parts[3];
        switch (op) {
            case "get" -> {
                requireMethod(method, "GET", path);
                Fields params = params(request, GET_PARAMS, op);
                Region region = region(parts[2]);
                handleGet(request, response, callback, region, params);
            }
            case "multiget" -> {
                if (!method.equals("GET") && !method.equals("POST")) {
                    throw new RpcException(
                            405,
                            "method_not_allowed",
                            method + " " + path + " is not supported; use POST with a JSON body "
                                    + "{\"rows\": [\"row1\", ...]} (or GET with repeated row= parameters)");
                }
                Fields params = params(request, MULTIGET_PARAMS, op);
                Region region = region(parts[2]);
                handleMultiGet(request, response, callback, region, params);
            }
            case "scan" -> {
                requireMethod(method, "GET", path);
                Fields params = params(request, SCAN_PARAMS, op);
                Region region = region(parts[2]);
                handleScan(request, response, callback, region, params);
            }
            default ->
                throw RpcException.notFound("no operation '" + op + "' in " + path + "; endpoints: " + ENDPOINTS);
        }
    }

    // ---- operations

    private void handleGet(Request request, Response response, Callback callback, Region region, Fields params)
            throws IOException {
        KeyEncoding keys = KeyEncoding.parse(single(params, "keyEncoding"));
        boolean json = wantsJson(request, params);
        String rowText = single(params, "row");
        if (rowText == null) {
            throw RpcException.badRequest("missing parameter 'row': pass the row key, e.g. /v1/" + region.name()
                    + "/get?row=00000000000000000000000042");
        }
        byte[] row = nonEmptyKey(keys.decode(rowText, "row"), "row");
        ReadResult result = region.get(row, deadline(request));
        send(request, response, callback, region, result, keys, json, null);
    }

    private void handleMultiGet(Request request, Response response, Callback callback, Region region, Fields params)
            throws IOException {
        boolean json = wantsJson(request, params);
        List<String> rowTexts;
        KeyEncoding keys;
        if (request.getMethod().equals("POST")) {
            if (params.get("row") != null) {
                throw RpcException.badRequest("pass the rows either in the JSON body or as row= parameters, not both");
            }
            MultiGetBody body = readBody(request);
            keys = KeyEncoding.parse(body.keyEncoding != null ? body.keyEncoding : single(params, "keyEncoding"));
            rowTexts = body.rows;
        } else {
            keys = KeyEncoding.parse(single(params, "keyEncoding"));
            rowTexts = params.getValuesOrEmpty("row");
        }
        if (rowTexts.isEmpty()) {
            throw RpcException.badRequest("a multiget needs at least one row: POST {\"rows\": [\"row1\", \"row2\"]}");
        }
        if (rowTexts.size() > limits.maxMultiGetRows()) {
            throw RpcException.badRequest("multiget of " + rowTexts.size() + " rows exceeds the limit of "
                    + limits.maxMultiGetRows() + " rows per request; split it into smaller batches");
        }
        byte[][] rows = new byte[rowTexts.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = nonEmptyKey(keys.decode(rowTexts.get(i), "row " + i), "row " + i);
        }
        ReadResult result = region.multiGet(rows, rows.length, deadline(request));
        send(request, response, callback, region, result, keys, json, null);
    }

    private void handleScan(Request request, Response response, Callback callback, Region region, Fields params)
            throws IOException {
        KeyEncoding keys = KeyEncoding.parse(single(params, "keyEncoding"));
        boolean json = wantsJson(request, params);
        byte[] start = keyOrEmpty(params, "start", keys);
        byte[] stop = keyOrEmpty(params, "stop", keys);
        if (start.length > 0 && stop.length > 0 && compare(start, stop) >= 0) {
            throw RpcException.badRequest("bad range: start '" + single(params, "start") + "' must sort before stop '"
                    + single(params, "stop") + "' (rows are ordered as unsigned bytes; stop is exclusive)");
        }
        long limit = positiveLong(params, "limit", -1);
        long maxBytes =
                Math.min(positiveLong(params, "maxBytes", limits.maxResponseBytes()), limits.maxResponseBytes());
        FilterSpec filter;
        try {
            filter = FilterSpec.parse(single(params, "filter"), filterLoader, filterClasses);
        } catch (FilterNotAllowedException e) {
            throw new RpcException(403, "filter_not_allowed", e.getMessage());
        } catch (IllegalArgumentException e) {
            throw RpcException.badRequest(e.getMessage());
        }
        String tokenText = single(params, "continuation");
        if (tokenText != null) {
            ContinuationToken token = ContinuationToken.decode(tokenText);
            byte[] resume = token.resumeRow();
            if (compare(resume, start) < 0 || (stop.length > 0 && compare(resume, stop) >= 0)) {
                throw RpcException.badRequest("continuation token does not belong to this range; "
                        + "send it back with the same start and stop as the scan that returned it");
            }
            if (limit > 0 && token.remainingRows() > limit) {
                throw RpcException.badRequest(
                        "continuation token promises more rows than limit=" + limit + "; keep limit unchanged");
            }
            start = resume;
            limit = token.remainingRows();
        }
        int maxRows = (int) (limit > 0 ? Math.min(limit, limits.maxScanRows()) : limits.maxScanRows());
        ScanSpec spec = new ScanSpec(
                start,
                stop,
                filter,
                maxRows,
                maxBytes,
                CellBlock::encodedLength,
                limits.maxScanRowsExamined(),
                limits.maxScanBytesExamined());
        ReadResult result = region.scan(spec, deadline(request));
        String continuation = null;
        if (!result.isComplete()) {
            long remaining = limit > 0 ? limit - result.rowCount() : -1;
            if (remaining != 0) {
                continuation = new ContinuationToken(result.resumeRow(), remaining).encode();
                metrics.partialScan();
            }
        }
        send(request, response, callback, region, result, keys, json, continuation);
    }

    // ---- responses

    private void send(
            Request request,
            Response response,
            Callback callback,
            Region region,
            ReadResult result,
            KeyEncoding keys,
            boolean json,
            String continuation) {
        boolean handedOver = false;
        try {
            // A client that reads slowly keeps the result's blocks pinned: it gets --slow-client-timeout
            // to read the response, then loses the connection, and the write's failure releases them.
            Scheduler.Task deadline =
                    ConnectionGuards.deadline(request, limits.slowClientTimeout(), "reading the response");
            Callback done = ConnectionGuards.cancelling(callback, deadline);
            response.setStatus(200);
            response.getHeaders().put("X-Blockscope-Rows", result.rowCount());
            response.getHeaders().put("X-Blockscope-Cells", result.cellCount());
            response.getHeaders().put("X-Blockscope-Rows-Scanned", result.rowsScanned());
            if (continuation != null) {
                response.getHeaders().put("X-Blockscope-Continuation", continuation);
            }
            if (json) {
                byte[] body = JsonResults.write(region.name(), result, keys, continuation);
                handedOver = true;
                sendBytes(response, done, 200, JSON_TYPE, body, result);
            } else {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, CellBlock.CONTENT_TYPE);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, CellBlockResponse.bodyLength(result));
                CellBlockResponse writer = new CellBlockResponse(
                        response, result, done, request.getComponents().getByteBufferPool(), metrics);
                handedOver = true;
                writer.iterate();
            }
        } finally {
            // Until a writer owns the result, this method does: release it on every other path.
            if (!handedOver) {
                result.release();
            }
        }
    }

    /** Writes a whole body; {@code result}, when given, is released once the write completes or fails. */
    private void sendBytes(
            Response response, Callback callback, int status, String type, byte[] body, ReadResult result) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(
                true,
                ByteBuffer.wrap(body),
                Callback.from(
                        () -> {
                            if (result != null) {
                                result.release();
                            }
                            metrics.responseWritten();
                            callback.succeeded();
                        },
                        failure -> {
                            if (result != null) {
                                result.release();
                            }
                            metrics.responseFailed();
                            callback.failed(failure);
                        }));
    }

    private void sendJson(Response response, Callback callback, int status, Object body) {
        byte[] bytes;
        try {
            bytes = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a response", e);
        }
        sendBytes(response, callback, status, JSON_TYPE, bytes, null);
    }

    private void sendError(Response response, Callback callback, int status, String reason, String message) {
        if (response.isCommitted()) {
            callback.failed(new IOException(message));
            return;
        }
        response.reset();
        if (status == 405) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, POST");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", reason);
        body.put("message", message);
        sendJson(response, callback, status, body);
    }

    private Map<String, Object> status(boolean settleGc) {
        Map<String, Object> status = new LinkedHashMap<>(statusSource.get());
        status.put("blockRefsOutstanding", tables.outstandingBlockReferences());
        status.put("tables", tablesJson());
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

    private List<Map<String, Object>> tablesJson() {
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

    // ---- parsing helpers

    private Region region(String name) {
        Region region = tables.region(name);
        if (region == null) {
            List<String> names = new ArrayList<>();
            for (Region r : tables.regions()) {
                names.add(r.name());
            }
            throw RpcException.notFound(
                    "unknown table '" + KeyEncoding.abbreviate(name) + "'; tables served: " + names);
        }
        return region;
    }

    private static void requireMethod(String method, String expected, String path) {
        if (!method.equals(expected)) {
            throw new RpcException(
                    405, "method_not_allowed", method + " " + path + " is not supported; use " + expected);
        }
    }

    private static Fields params(Request request, Set<String> allowed, String op) {
        Fields params = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        for (String name : params.getNames()) {
            if (!allowed.contains(name)) {
                throw RpcException.badRequest("unknown parameter '" + KeyEncoding.abbreviate(name) + "' for " + op
                        + "; accepted: " + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
        return params;
    }

    private static String single(Fields params, String name) {
        List<String> values = params.getValuesOrEmpty(name);
        if (values.size() > 1) {
            throw RpcException.badRequest(
                    "parameter '" + name + "' is given " + values.size() + " times; give it once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    private static boolean wantsJson(Request request, Fields params) {
        String format = single(params, "format");
        if (format != null) {
            return switch (format) {
                case "json" -> true;
                case "cellblock" -> false;
                default ->
                    throw RpcException.badRequest(
                            "unknown format '" + KeyEncoding.abbreviate(format) + "'; accepted: json, cellblock");
            };
        }
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        return accept != null && accept.contains(JSON_TYPE) && !accept.contains(CellBlock.CONTENT_TYPE);
    }

    private static byte[] nonEmptyKey(byte[] key, String what) {
        if (key.length == 0) {
            throw RpcException.badRequest(what + " is empty; row keys are 1.." + Short.MAX_VALUE + " bytes");
        }
        return key;
    }

    private static byte[] keyOrEmpty(Fields params, String name, KeyEncoding keys) {
        String text = single(params, name);
        return text == null ? new byte[0] : keys.decode(text, name);
    }

    private static long positiveLong(Fields params, String name, long absent) {
        String text = single(params, name);
        if (text == null) {
            return absent;
        }
        try {
            long value = Long.parseLong(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw RpcException.badRequest(
                "parameter '" + name + "' must be a positive integer, got '" + KeyEncoding.abbreviate(text) + "'");
    }

    private static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    private long deadline(Request request) {
        return request.getHeadersNanoTime() + limits.requestTimeout().toNanos();
    }

    /** The multi-get body {@link #readBodyThenServe} collected, parsed as a token stream (see {@link MultiGetBody}). */
    private MultiGetBody readBody(Request request) {
        Object body = request.getAttribute(BODY_ATTRIBUTE);
        if (body instanceof Throwable failure) {
            if (failure instanceof IllegalArgumentException) {
                // asByteArrayAsync's answer to a body past its size limit (one without Content-Length)
                throw tooLarge(-1);
            }
            throw RpcException.badRequest("could not read the request body: " + firstLine(String.valueOf(failure)));
        }
        try {
            return MultiGetBody.read(
                    new ByteArrayInputStream((byte[]) body), limits.maxRequestBytes(), limits.maxMultiGetRows());
        } catch (MultiGetBody.TooLarge e) {
            throw tooLarge(-1);
        } catch (IOException e) {
            throw RpcException.badRequest("could not read the request body: " + firstLine(e.getMessage()));
        }
    }

    private RpcException tooLarge(long declared) {
        return new RpcException(
                413,
                "request_too_large",
                "request body " + (declared > 0 ? "of " + declared + " bytes " : "") + "exceeds the limit of "
                        + limits.maxRequestBytes() + " bytes; send fewer rows per request");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
