package io.blockscope.server.filter;

/** A {@code class:} filter the server's allow-list does not name (the RPC answers 403). */
public final class FilterNotAllowedException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public FilterNotAllowedException(String message) {
        super(message);
    }
}
