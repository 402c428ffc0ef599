package io.blockscope.server.rpc;

import java.time.Duration;

/**
 * Bounds that keep one request from taking the server down.
 *
 * @param maxRequestBytes       largest request body accepted (413 above)
 * @param maxMultiGetRows       most rows in one multi-get (400 above)
 * @param maxScanRows           most rows one scan response carries; more come by continuation
 * @param maxResponseBytes      a scan response stops after the row that reaches this many bytes
 * @param requestTimeout        a get or multi-get running longer fails (503); a scan returns what
 *                              it has with a continuation
 * @param idleTimeout           a connection idle (or a client not reading) this long is closed
 */
public record RpcLimits(
        long maxRequestBytes,
        int maxMultiGetRows,
        int maxScanRows,
        long maxResponseBytes,
        Duration requestTimeout,
        Duration idleTimeout) {

    public static final RpcLimits DEFAULTS =
            new RpcLimits(1 << 20, 1000, 10_000, 4L << 20, Duration.ofSeconds(30), Duration.ofSeconds(30));

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
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request timeout must be positive, got " + requestTimeout);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idleTimeout);
        }
    }
}
