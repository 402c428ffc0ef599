package io.blockscope.server.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.blockscope.server.region.ReadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Writes every response of the RPC tier: small bodies (text, JSON, errors) whole, read results as
 * JSON or a streamed cell block. A read result handed to {@link #result} belongs to this class from
 * then on: its blocks are released once the write completes or fails, never before.
 */
final class RpcResponses {

    private final RpcLimits limits;
    private final RpcMetrics metrics;

    RpcResponses(RpcLimits limits, RpcMetrics metrics) {
        this.limits = limits;
        this.metrics = metrics;
    }

    void text(Response response, Callback callback, String text) {
        bytes(response, callback, 200, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8), null);
    }

    void json(Response response, Callback callback, int status, Object body) {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a response", e);
        }
        bytes(response, callback, status, Json.CONTENT_TYPE, bytes, null);
    }

    /**
     * {@code {"status":..,"error":..,"message":..}}; a response already under way can only be cut off.
     *
     * @param bodyUnread whether the request's body is left unread: the connection then cannot carry
     *     another request, and the answer says so (Jetty would close it after the answer silently,
     *     and a client reusing it meanwhile would have its next request, not retried if a POST, fail)
     */
    void error(Response response, Callback callback, int status, String reason, String message, boolean bodyUnread) {
        if (response.isCommitted()) {
            callback.failed(new IOException(message));
            return;
        }
        response.reset();
        if (status == 405) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, POST");
        }
        if (bodyUnread) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", reason);
        body.put("message", message);
        json(response, callback, status, body);
    }

    /**
     * A read's rows, as JSON or a cell block; takes ownership of {@code result}.
     *
     * @param continuation the token a partial scan hands back; null when the read is complete
     */
    void result(
            Request request,
            Response response,
            Callback callback,
            String table,
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
                byte[] body = JsonResults.write(table, result, keys, continuation);
                handedOver = true;
                bytes(response, done, 200, Json.CONTENT_TYPE, body, result);
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
    private void bytes(Response response, Callback callback, int status, String type, byte[] body, ReadResult result) {
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
}
