package io.blockscope.server.region;

/**
 * A scan that cannot make progress within its bound on bytes examined: its first row alone is
 * larger. Thrown before anything is returned; every block is given back first.
 */
public final class ScanLimitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long limit;

    public ScanLimitException(String message, long limit) {
        super(message);
        this.limit = limit;
    }

    /** The bound that was hit, in bytes. */
    public long limit() {
        return limit;
    }
}
