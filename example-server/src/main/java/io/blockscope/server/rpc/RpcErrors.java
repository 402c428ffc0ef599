package io.blockscope.server.rpc;

import io.blockscope.server.filter.FilterNotAllowedException;
import io.blockscope.server.region.RegionTimeoutException;
import io.blockscope.server.region.ScanLimitException;
import java.io.IOException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * What the client is told about a request that failed, for every endpoint in one place: the HTTP
 * status, a short reason, a message saying how to fix it, the error counters, and a line in the
 * server log for the failures that are the server's.
 */
final class RpcErrors {

    private final RpcResponses responses;
    private final RpcMetrics metrics;

    RpcErrors(RpcResponses responses, RpcMetrics metrics) {
        this.responses = responses;
        this.metrics = metrics;
    }

    /**
     * Answers a failed request. Takes Exception, not Throwable: an Error (OutOfMemoryError,
     * StackOverflowError) is left to Jetty and the JVM; every block a request holds is released in
     * finally blocks, not here.
     */
    void send(Request request, Response response, Callback callback, Exception failure) {
        RpcException answer = answer(failure);
        metrics.error(answer.status());
        if (failure instanceof RegionTimeoutException) {
            metrics.timeout();
        }
        if (failure instanceof IOException) {
            System.err.println("[blockscope] " + request.getMethod() + " " + request.getHttpURI() + ": " + failure);
        } else if (answer.status() == 500) {
            System.err.println(
                    "[blockscope] request " + request.getMethod() + " " + request.getHttpURI() + " failed: " + failure);
        }
        responses.error(
                response,
                callback,
                answer.status(),
                answer.reason(),
                answer.getMessage(),
                RequestBody.leftUnread(request));
    }

    /** The answer to a failure: the refusal itself, or what a failure of the read or of Jetty means. */
    static RpcException answer(Exception failure) {
        if (failure instanceof RpcException refused) {
            return refused;
        }
        if (failure instanceof FilterNotAllowedException e) {
            return new RpcException(403, "filter_not_allowed", e.getMessage());
        }
        if (failure instanceof IOException e) {
            return new RpcException(
                    500,
                    "read_failed",
                    "reading the table failed: " + e.getMessage() + "; the server keeps serving other requests");
        }
        if (failure instanceof RegionTimeoutException e) {
            return new RpcException(503, "timeout", e.getMessage());
        }
        if (failure instanceof ScanLimitException e) {
            return new RpcException(
                    400,
                    "scan_limit",
                    e.getMessage() + " (--max-scan-bytes-examined " + e.limit()
                            + "); raise that serve option to read this row");
        }
        if (failure instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
            // Jetty's own parse errors, e.g. bad percent-encoding in the query string
            return new RpcException(
                    http.getCode(),
                    "bad_request",
                    "malformed request (" + http.getReason()
                            + "): check the percent-encoding of the query string, or pass keys with keyEncoding=hex");
        }
        return new RpcException(
                500,
                "internal_error",
                "the server failed on this request (" + failure
                        + "); it keeps serving, and the server log has details");
    }
}
