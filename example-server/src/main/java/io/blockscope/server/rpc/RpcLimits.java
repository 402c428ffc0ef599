package io.blockscope.server.rpc;

import java.time.Duration;

/**
 * Bounds that keep one request, or one client, from taking the server down (docs/rpc.md, docs/security.md).
 *
 * @param maxRequestBytes         largest request body accepted (413 above)
 * @param maxMultiGetRows         most rows in one multi-get (400 above)
 * @param maxScanRows             most rows one scan response carries; more come by continuation
 * @param maxResponseBytes        a scan response stops after the row that reaches this many bytes
 * @param requestTimeout          a get or multi-get running longer fails (503); a scan returns what
 *                                it has with a continuation
 * @param idleTimeout             a connection idle (or a client not reading) this long is closed
 * @param maxScanRowsExamined     most rows one scan response reads, returned or filtered out; more
 *                                come by continuation
 * @param maxScanBytesExamined    most cell bytes one scan response reads, returned or filtered out;
 *                                more come by continuation, and a single row larger than this is a 400
 * @param slowClientTimeout       a request body that takes longer to arrive, or a response that takes
 *                                longer to be read, is cut off (and the response's blocks released)
 * @param maxConnections          open connections at most; further ones wait in the accept queue
 * @param maxConnectionsPerClient open connections from one client address at most; more are closed
 */
public record RpcLimits(
        long maxRequestBytes,
        int maxMultiGetRows,
        int maxScanRows,
        long maxResponseBytes,
        Duration requestTimeout,
        Duration idleTimeout,
        long maxScanRowsExamined,
        long maxScanBytesExamined,
        Duration slowClientTimeout,
        int maxConnections,
        int maxConnectionsPerClient) {

    public static final RpcLimits DEFAULTS = new RpcLimits(
            1 << 20,
            1000,
            10_000,
            4L << 20,
            Duration.ofSeconds(30),
            Duration.ofSeconds(30),
            100_000,
            64L << 20,
            Duration.ofSeconds(30),
            2048,
            256);

    public RpcLimits {
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("max request bytes must be at least 1k, got " + maxRequestBytes);
        }
        if (maxMultiGetRows < 1) {
            throw new IllegalArgumentException("max multi-get rows must be at least 1, got " + maxMultiGetRows);
        }
        if (maxScanRows < 1) {
            throw new IllegalArgumentException("max scan rows must be at least 1, got " + maxScanRows);
        }
        if (maxResponseBytes < 1024) {
            throw new IllegalArgumentException("max response bytes must be at least 1k, got " + maxResponseBytes);
        }
        positive(requestTimeout, "request timeout");
        positive(idleTimeout, "idle timeout");
        positive(slowClientTimeout, "slow client timeout");
        if (maxScanRowsExamined < 1) {
            throw new IllegalArgumentException(
                    "--max-scan-rows-examined must be at least 1, got " + maxScanRowsExamined);
        }
        if (maxScanBytesExamined < 1024) {
            throw new IllegalArgumentException(
                    "--max-scan-bytes-examined must be at least 1k, got " + maxScanBytesExamined);
        }
        if (maxConnections < 1 || maxConnectionsPerClient < 1) {
            throw new IllegalArgumentException("--max-connections and --max-connections-per-client must be at least"
                    + " 1, got " + maxConnections + " and " + maxConnectionsPerClient);
        }
    }

    private static void positive(Duration d, String what) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
    }
}
