package io.blockscope.server.rpc;

/**
 * A request the server refuses: an HTTP status, a short machine-readable reason and a message that
 * says what was wrong and how to fix it. Sent as {@code {"status":..,"error":..,"message":..}}.
 */
final class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String reason;

    RpcException(int status, String reason, String message) {
        super(message, null, false, false);
        this.status = status;
        this.reason = reason;
    }

    static RpcException badRequest(String message) {
        return new RpcException(400, "bad_request", message);
    }

    static RpcException notFound(String message) {
        return new RpcException(404, "not_found", message);
    }

    int status() {
        return status;
    }

    String reason() {
        return reason;
    }
}
