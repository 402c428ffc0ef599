package io.blockscope.exporter;

/**
 * A file or variable that an option names (TLS material, a password file) cannot be used, although
 * the options themselves are well formed. The agent then keeps its probes and metrics and serves
 * nothing: serving without the TLS or password the operator asked for would be worse.
 */
public final class UnusableFileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UnusableFileException(String message) {
        super(message);
    }
}
