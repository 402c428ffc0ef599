package io.blockscope.server.region;

/** A read ran past its deadline; it has already given back every block it held. */
public final class RegionTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegionTimeoutException(String message) {
        super(message);
    }
}
