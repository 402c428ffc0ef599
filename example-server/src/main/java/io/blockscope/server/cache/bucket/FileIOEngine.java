package io.blockscope.server.cache.bucket;

import io.blockscope.server.buffer.ByteBuff;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An io engine over one file, with positional reads and writes ({@code pread}/{@code pwrite}) that
 * run concurrently. Put the file on tmpfs or a fast SSD. A file cannot be viewed in place, so every
 * read copies into the caller's array: blocks served from it are always exclusive heap copies.
 *
 * <p>A thread interrupted during I/O makes the JDK close the channel for every thread. The engine
 * then reopens it: the interrupted read fails, the others retry once.
 *
 * <p>The cache is not persistent: the file's content means nothing after {@link #close()}.
 */
public final class FileIOEngine implements IOEngine {

    private final Path file;
    private final long capacity;
    private final boolean deleteOnClose;
    private volatile FileChannel channel;
    private volatile boolean closed;

    private FileIOEngine(Path file, long capacity, boolean deleteOnClose, FileChannel channel) {
        this.file = file;
        this.capacity = capacity;
        this.deleteOnClose = deleteOnClose;
        this.channel = channel;
    }

    /**
     * Opens (creating it if needed) {@code file} and sizes it to {@code capacity} bytes (sparse
     * where the file system allows).
     *
     * @param deleteOnClose whether {@link #close()} deletes the file
     * @throws IllegalArgumentException naming the file and the cause when it cannot be used
     */
    public static FileIOEngine open(Path file, long capacity, boolean deleteOnClose) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("io engine capacity must be positive, got " + capacity + " bytes");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(
                    "bucket cache file " + file + " is a directory: give the path of a file");
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (channel.size() > capacity) {
                channel.truncate(capacity);
            } else if (channel.size() < capacity) {
                // one byte at the end sizes the file without writing (or allocating) the rest
                channel.write(ByteBuffer.allocate(1), capacity - 1);
            }
            return new FileIOEngine(file, capacity, deleteOnClose, channel);
        } catch (IOException | SecurityException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new IllegalArgumentException(
                    "cannot use " + file + " as a bucket cache file of " + capacity + " bytes (" + e
                            + "): give a writable file on tmpfs or a local disk with enough space",
                    e);
        }
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public boolean supportsSharedViews() {
        return false;
    }

    @Override
    public boolean isOffHeap() {
        return true;
    }

    @Override
    public IOEngineType type() {
        return IOEngineType.FILE;
    }

    /** The cache file. */
    public Path file() {
        return file;
    }

    @Override
    public ByteBuff view(long offset, int length) {
        throw new UnsupportedOperationException("a file io engine cannot expose its memory: use read()");
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        IOEngine.checkRange(offset, length, capacity);
        ByteBuffer target = ByteBuffer.wrap(dst, dstOffset, length);
        withChannel(offset, length, "read", ch -> {
            while (target.hasRemaining()) {
                long at = offset + (target.position() - dstOffset);
                if (ch.read(target, at) < 0) {
                    throw new EOFException("end of file at " + at + ": was " + file + " truncated by someone else?");
                }
            }
        });
    }

    @Override
    public void write(long offset, ByteBuff src, int srcIndex, int length) {
        IOEngine.checkRange(offset, length, capacity);
        ByteBuffer source = src.isContiguous(srcIndex, length)
                ? src.bufferAt(srcIndex).slice(src.positionOf(srcIndex), length)
                : ByteBuffer.wrap(src.toBytes(srcIndex, length));
        withChannel(offset, length, "write", ch -> {
            while (source.hasRemaining()) {
                ch.write(source, offset + source.position());
            }
        });
    }

    private interface ChannelIo {
        void run(FileChannel channel) throws IOException;
    }

    private void withChannel(long offset, int length, String what, ChannelIo io) {
        for (int attempt = 0; ; attempt++) {
            FileChannel current = channel;
            try {
                io.run(current);
                return;
            } catch (ClosedByInterruptException e) {
                reopen(current); // for the other threads; this one was interrupted and gives up
                throw failure(what, offset, length, e);
            } catch (ClosedChannelException e) {
                if (closed || attempt > 0) {
                    throw failure(what, offset, length, e);
                }
                reopen(current);
            } catch (IOException e) {
                throw failure(what, offset, length, e);
            }
        }
    }

    private synchronized void reopen(FileChannel broken) {
        if (closed || channel != broken) {
            return;
        }
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw failure("reopen", 0, 0, e);
        }
    }

    private UncheckedIOException failure(String what, long offset, int length, IOException cause) {
        return new UncheckedIOException(
                "bucket cache file " + file + ": " + what + " of " + length + " bytes at offset " + offset + " failed",
                cause);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
            if (deleteOnClose) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("closing bucket cache file " + file + " failed", e);
        }
    }

    @Override
    public String toString() {
        return "FileIOEngine[" + file + ", " + capacity + " bytes]";
    }
}
