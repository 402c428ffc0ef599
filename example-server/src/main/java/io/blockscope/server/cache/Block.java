package io.blockscope.server.cache;

import io.blockscope.server.buffer.ByteBuff;

/**
 * A block as handed to readers: its type and its payload bytes (header and checksum already
 * verified and stripped by the store file reader).
 *
 * <p>A {@link MemoryType#SHARED} block views cache memory (a bucket, or the L1 map's own copy):
 * the cache keeps it from being evicted until the reader gives it back with
 * {@link BlockCache#returnBlock}. An {@link MemoryType#EXCLUSIVE} block belongs to the reader
 * alone (read from disk, or copied out of the cache in copy mode); returning it is a no-op.
 *
 * <p>In zero-copy mode every {@code getBlock} hands out a new {@code Block} over the shared bytes,
 * so each checkout is a distinct object: what makes weak-reference leak tracking possible.
 */
public final class Block {

    public enum MemoryType {
        SHARED,
        EXCLUSIVE
    }

    private final BlockType type;
    private final ByteBuff data;
    private final MemoryType memoryType;

    public Block(BlockType type, ByteBuff data, MemoryType memoryType) {
        this.type = type;
        this.data = data;
        this.memoryType = memoryType;
    }

    public BlockType type() {
        return type;
    }

    /** The payload. Absolute reads only; the view is shared with other readers. */
    public ByteBuff data() {
        return data;
    }

    public MemoryType memoryType() {
        return memoryType;
    }

    /** Payload length in bytes. */
    public int length() {
        return data.capacity();
    }

    /** A new handle on the same bytes with another memory type. */
    public Block withMemoryType(MemoryType type) {
        return new Block(this.type, data, type);
    }

    @Override
    public String toString() {
        return "Block[" + type + ", " + length() + " bytes, " + memoryType + ", " + data + "]";
    }
}
