package io.blockscope.server.cell;

/**
 * Bytes that do not hold a well-formed {@link KeyValueFormat} cell: lengths that are negative, do
 * not add up, or run past the end of the buffer. Store file code turns it into a
 * {@code CorruptStoreFileException} naming the file and block.
 */
public final class MalformedCellException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedCellException(String message) {
        super(message);
    }
}
