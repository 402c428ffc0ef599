package io.blockscope.server.storefile;

import java.io.IOException;

/**
 * A store file whose bytes are not what its writer wrote: bad magic, a checksum mismatch, a
 * truncation, offsets that point outside the file. The message names the file, the offset of the
 * block (or trailer) and what was wrong. Readers never return cells from such a block.
 */
public final class CorruptStoreFileException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;
    private final String problem;

    public CorruptStoreFileException(String file, long offset, String problem) {
        this(file, offset, problem, null);
    }

    public CorruptStoreFileException(String file, long offset, String problem, Throwable cause) {
        super(
                "store file " + file + " is corrupt at offset " + offset + ": " + problem
                        + " (rewrite the file with `load`, or restore it from a good copy)",
                cause);
        this.file = file;
        this.offset = offset;
        this.problem = problem;
    }

    /** The file's name as the reader knows it (its absolute path). */
    public String file() {
        return file;
    }

    /** Offset of the damaged block, or of the trailer, in the file. */
    public long offset() {
        return offset;
    }

    /** What was wrong, without the file and offset. */
    public String problem() {
        return problem;
    }
}
