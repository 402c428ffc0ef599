package io.blockscope.server.storefile;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads a store file (layout in {@link StoreFileFormat}) with positional reads on one
 * {@link FileChannel}; safe for concurrent use.
 *
 * <p>Opening reads and checks the trailer, the root index and the bloom index, and keeps those two
 * small blocks in memory. Everything else, leaf index blocks, bloom chunks and data blocks, is
 * fetched per lookup from a {@link BlockSource} the caller passes in: {@link #uncachedBlocks()} for
 * the file itself, or a source backed by the block cache.
 *
 * <p>Every block read from disk is checked (type, length, CRC32C) before anything looks inside it;
 * a damaged file fails with a {@link CorruptStoreFileException} naming the file, the block offset
 * and the problem.
 */
public final class StoreFileReader implements Closeable {

    private final Path path;
    private final String name;
    /** Replaced when a thread's interrupt closes it: see {@link #read}. */
    private volatile FileChannel channel;

    private volatile boolean closed;
    private final long fileSize;
    private final long trailerOffset;
    private final Trailer trailer;
    private final IndexBlock rootIndex;
    private final IndexBlock bloomIndex;
    private final BlockSource uncached = new UncachedBlockSource();

    private StoreFileReader(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.name = path.toAbsolutePath().normalize().toString();
        this.channel = channel;
        this.fileSize = channel.size();
        if (fileSize < StoreFileFormat.TRAILER_SIZE) {
            throw new CorruptStoreFileException(
                    name,
                    0,
                    "file of " + fileSize + " bytes is smaller than the " + StoreFileFormat.TRAILER_SIZE
                            + "-byte trailer: truncated, or not a blockscope store file");
        }
        this.trailerOffset = fileSize - StoreFileFormat.TRAILER_SIZE;
        byte[] trailerBytes = new byte[StoreFileFormat.TRAILER_SIZE];
        readFully(ByteBuffer.wrap(trailerBytes), trailerOffset, trailerOffset);
        this.trailer = Trailer.decode(trailerBytes, name, trailerOffset);
        this.rootIndex = new IndexBlock(
                readBlock(trailer.rootIndexOffset(), BlockType.INDEX).data(), name, trailer.rootIndexOffset());
        this.bloomIndex = new IndexBlock(
                readBlock(trailer.bloomIndexOffset(), BlockType.INDEX).data(), name, trailer.bloomIndexOffset());
        checkEntries(rootIndex, trailer.rootIndexOffset(), trailer.leafIndexBlockCount(), "leaf index");
        checkEntries(bloomIndex, trailer.bloomIndexOffset(), trailer.bloomChunkCount(), "bloom chunk");
    }

    /**
     * Opens a store file and checks its trailer and top-level indexes.
     *
     * @throws CorruptStoreFileException when those are damaged
     */
    public static StoreFileReader open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new StoreFileReader(path, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** The file's name in block cache keys and error messages: its absolute, normalized path. */
    public String name() {
        return name;
    }

    public StoreFileInfo info() {
        return new StoreFileInfo(
                trailer.cellCount(),
                trailer.rowCount(),
                trailer.dataBlockCount(),
                trailer.leafIndexBlockCount(),
                trailer.bloomChunkCount(),
                trailer.dataSectionEnd(),
                fileSize);
    }

    /** The cache key of the block at {@code offset} of this file. */
    public BlockCacheKey keyFor(long offset) {
        return new BlockCacheKey(name, offset);
    }

    /** The file itself as a block source: every {@code getBlock} is a checked read from disk. */
    public BlockSource uncachedBlocks() {
        return uncached;
    }

    /**
     * Reads and checks the block at {@code offset}: an {@link Block.MemoryType#EXCLUSIVE} block over
     * a heap copy of its payload.
     *
     * @throws CorruptStoreFileException when the block is damaged, truncated or of another type
     */
    public Block readBlock(long offset, BlockType expectedType) throws IOException {
        if (offset < 0 || offset >= trailerOffset) {
            throw corrupt(offset, "block offset is outside the block area [0, " + trailerOffset + ")");
        }
        long sectionEnd = sectionEnd(offset);
        if (sectionEnd - offset < StoreFileFormat.BLOCK_HEADER_SIZE) {
            throw corrupt(offset, "block header runs past the end of its section at " + sectionEnd);
        }
        byte[] header = new byte[StoreFileFormat.BLOCK_HEADER_SIZE];
        readFully(ByteBuffer.wrap(header), offset, offset);
        ByteBuffer h = ByteBuffer.wrap(header);
        BlockType type = BlockType.fromCode(header[0]);
        if (type == null) {
            throw corrupt(
                    offset,
                    String.format(
                            "bad block magic 0x%02X, expected a block type code (%s)", header[0] & 0xFF, typeCodes()));
        }
        if (type != expectedType) {
            throw corrupt(offset, "expected a " + expectedType + " block, found a " + type + " block");
        }
        int payloadLength = h.getInt(1);
        long available = sectionEnd - offset - StoreFileFormat.BLOCK_HEADER_SIZE;
        if (payloadLength < 0 || payloadLength > available) {
            throw corrupt(
                    offset,
                    "payload length " + payloadLength + " runs past the end of its section (" + available
                            + " bytes left before offset " + sectionEnd + ")");
        }
        byte[] payload = new byte[payloadLength];
        readFully(ByteBuffer.wrap(payload), offset + StoreFileFormat.BLOCK_HEADER_SIZE, offset);
        CRC32C crc = new CRC32C();
        crc.update(header, 0, StoreFileFormat.BLOCK_HEADER_CHECKED);
        crc.update(payload);
        int expected = h.getInt(StoreFileFormat.BLOCK_HEADER_CHECKED);
        if ((int) crc.getValue() != expected) {
            throw corrupt(
                    offset,
                    String.format(
                            "checksum mismatch in %s block of %d bytes: expected 0x%08X, actual 0x%08X",
                            type, payloadLength, expected, (int) crc.getValue()));
        }
        return new Block(type, ByteBuff.wrap(payload), Block.MemoryType.EXCLUSIVE);
    }

    /**
     * Whether the file may hold {@code row}: false means it certainly does not. Reads one bloom
     * chunk through {@code blocks}.
     */
    public boolean mightContainRow(byte[] row, BlockSource blocks) throws IOException {
        return mightContainRow(row, 0, row.length, blocks);
    }

    public boolean mightContainRow(byte[] row, int offset, int length, BlockSource blocks) throws IOException {
        int chunk = bloomIndex.floorEntry(row, offset, length);
        if (chunk < 0) {
            return false;
        }
        long chunkOffset = bloomIndex.blockOffset(chunk);
        BlockCacheKey key = keyFor(chunkOffset);
        Block block = fetch(blocks, key, BlockType.BLOOM);
        try {
            return RowBloom.mightContain(block.data(), RowBloom.hash(row, offset, length));
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            throw new CorruptStoreFileException(name, chunkOffset, "bloom chunk: " + e.getMessage(), e);
        } finally {
            blocks.returnBlock(key, block);
        }
    }

    /**
     * Offset of the data block where a seek for {@code row} starts: the last block whose first row
     * sorts before {@code row} (it may end with cells of {@code row}), or the first block. The cells
     * of {@code row}, if any, are in that block or the ones after it. Returns -1 for an empty file.
     * Reads one leaf index block through {@code blocks}.
     */
    public long dataBlockOffsetFor(byte[] row, BlockSource blocks) throws IOException {
        return dataBlockOffsetFor(row, 0, row.length, blocks);
    }

    public long dataBlockOffsetFor(byte[] row, int offset, int length, BlockSource blocks) throws IOException {
        int leafEntry = rootIndex.seekEntry(row, offset, length);
        if (leafEntry < 0) {
            return -1;
        }
        long leafOffset = rootIndex.blockOffset(leafEntry);
        BlockCacheKey key = keyFor(leafOffset);
        Block leafBlock = fetch(blocks, key, BlockType.INDEX);
        try {
            IndexBlock leaf = new IndexBlock(leafBlock.data(), name, leafOffset);
            int entry = leaf.seekEntry(row, offset, length);
            if (entry < 0) {
                throw corrupt(leafOffset, "leaf index block has no entries");
            }
            long dataOffset = leaf.blockOffset(entry);
            int size = leaf.blockSize(entry);
            if (dataOffset < 0
                    || size < StoreFileFormat.BLOCK_HEADER_SIZE
                    || dataOffset > trailer.dataSectionEnd() - size) {
                throw corrupt(
                        leafOffset,
                        "index points past end: entry " + entry + " names a data block at " + dataOffset + " of " + size
                                + " bytes, outside the data section [0, " + trailer.dataSectionEnd() + ")");
            }
            return dataOffset;
        } finally {
            blocks.returnBlock(key, leafBlock);
        }
    }

    /** Offset of the first data block, or -1 for an empty file. */
    public long firstDataBlockOffset() {
        return trailer.dataSectionEnd() > 0 ? 0 : -1;
    }

    /**
     * Offset of the data block after {@code block}, which was read at {@code offset}, or -1 after
     * the last one. Data blocks are contiguous, so no index lookup is needed.
     */
    public long nextDataBlockOffset(long offset, Block block) {
        long next = offset + StoreFileFormat.BLOCK_HEADER_SIZE + block.length();
        return next < trailer.dataSectionEnd() ? next : -1;
    }

    /**
     * Gets a block from a source and checks its type: a cache keyed wrongly must not hand an index
     * block to a data block reader.
     */
    Block fetch(BlockSource blocks, BlockCacheKey key, BlockType type) throws IOException {
        Block block = blocks.getBlock(key, type);
        if (block == null) {
            throw new IllegalStateException("block source " + blocks + " returned no block for " + key);
        }
        if (block.type() != type) {
            blocks.returnBlock(key, block);
            throw corrupt(
                    key.offset(),
                    "expected a " + type + " block, the block source returned a " + block.type() + " block");
        }
        return block;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        channel.close();
    }

    @Override
    public String toString() {
        return "StoreFileReader[" + name + ", " + info() + "]";
    }

    CorruptStoreFileException corrupt(long offset, String problem) {
        return new CorruptStoreFileException(name, offset, problem);
    }

    /** The end of the section holding {@code offset}: blocks never run across a section boundary. */
    private long sectionEnd(long offset) {
        if (offset < trailer.dataSectionEnd()) {
            return trailer.dataSectionEnd();
        }
        if (offset < trailer.rootIndexOffset()) {
            return trailer.rootIndexOffset();
        }
        if (offset < trailer.bloomIndexOffset()) {
            return trailer.bloomIndexOffset();
        }
        return trailerOffset;
    }

    /** Checks that every entry of a top-level index points into the section between data and root. */
    private void checkEntries(IndexBlock index, long indexOffset, int expectedCount, String what)
            throws CorruptStoreFileException {
        if (index.entryCount() != expectedCount) {
            throw corrupt(
                    indexOffset,
                    "index lists " + index.entryCount() + " " + what + " blocks, the trailer says " + expectedCount);
        }
        for (int i = 0; i < index.entryCount(); i++) {
            long offset = index.blockOffset(i);
            int size = index.blockSize(i);
            if (offset < trailer.dataSectionEnd()
                    || size < StoreFileFormat.BLOCK_HEADER_SIZE
                    || offset > trailer.rootIndexOffset() - size) {
                throw corrupt(
                        indexOffset,
                        "index points past end: entry " + i + " names a " + what + " block at "
                                + offset + " of " + size + " bytes, outside [" + trailer.dataSectionEnd() + ", "
                                + trailer.rootIndexOffset() + ")");
            }
        }
    }

    private void readFully(ByteBuffer dst, long filePosition, long blockOffset) throws IOException {
        int wanted = dst.remaining();
        long at = filePosition;
        while (dst.hasRemaining()) {
            int n = read(dst, at);
            if (n < 0) {
                throw corrupt(
                        blockOffset,
                        "truncated at " + (wanted - dst.remaining()) + " of " + wanted + " bytes read from file offset "
                                + filePosition + " (the file now ends at " + channel.size() + ")");
            }
            at += n;
        }
    }

    /**
     * One positional read. An interrupt during a {@code FileChannel} read closes the channel for
     * every thread (NIO's interruptible-channel rule), and servers interrupt their worker threads
     * (on stop, on timeouts); so the interrupted thread gets its {@code ClosedByInterruptException} while the channel is reopened,
     * and threads whose read failed only because of it retry on the new channel.
     */
    private int read(ByteBuffer dst, long position) throws IOException {
        while (true) {
            FileChannel current = channel;
            try {
                return current.read(dst, position);
            } catch (ClosedByInterruptException e) {
                reopen(current);
                throw e;
            } catch (ClosedChannelException e) {
                if (closed) {
                    throw e;
                }
                reopen(current);
            }
        }
    }

    private synchronized void reopen(FileChannel broken) throws IOException {
        if (!closed && channel == broken) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
    }

    private static String typeCodes() {
        StringBuilder codes = new StringBuilder();
        for (BlockType t : BlockType.values()) {
            if (codes.length() > 0) {
                codes.append(", ");
            }
            codes.append(String.format("0x%02X %s", t.code(), t));
        }
        return codes.toString();
    }

    /** The file as a block source: reads are exclusive heap copies, so giving them back is a no-op. */
    private final class UncachedBlockSource implements BlockSource {

        @Override
        public Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException {
            if (!key.fileName().equals(name)) {
                throw new IllegalArgumentException("key " + key + " names another file than " + name);
            }
            return readBlock(key.offset(), expectedType);
        }

        @Override
        public void returnBlock(BlockCacheKey key, Block block) {
            // an exclusive heap copy: nothing to give back
        }

        @Override
        public String toString() {
            return "uncached(" + name + ")";
        }
    }
}
