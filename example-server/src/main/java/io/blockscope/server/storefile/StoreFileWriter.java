package io.blockscope.server.storefile;

import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.CellComparator;
import io.blockscope.server.cell.Cells;
import io.blockscope.server.cell.KeyValueCodec;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Bulk-loads cells, in {@link CellComparator} order, into a new store file (layout in
 * {@link StoreFileFormat}).
 *
 * <p>Data blocks stream to disk as they fill; a block closes once its payload reaches the target
 * size, so a block may end in the middle of a row. The index entries and bloom chunks stay in
 * memory (tens of bytes per data block, about a byte per row) and are written by {@link #finish()}.
 *
 * <p>The file is written under a temporary name and moved into place by {@code finish()}, so a
 * reader never sees a half-written file. {@link #close()} without {@code finish()} (an exception in
 * a try-with-resources block) deletes the temporary file.
 */
public final class StoreFileWriter implements Closeable {

    public static final int DEFAULT_DATA_BLOCK_SIZE = 64 * 1024;
    public static final int DEFAULT_INDEX_BLOCK_SIZE = 64 * 1024;
    public static final int DEFAULT_BLOOM_CHUNK_SIZE = 16 * 1024;
    public static final double DEFAULT_BLOOM_FALSE_POSITIVE_RATE = 0.01;

    private final Path path;
    private final Path tempPath;
    private final FileChannel channel;
    private final int dataBlockSize;
    private final int indexBlockSize;
    private final RowBloomWriter bloom;
    private final CRC32C crc = new CRC32C();

    /** The data block being filled: header room, then the payload. */
    private byte[] block;

    private int blockLength = StoreFileFormat.BLOCK_HEADER_SIZE;
    private byte[] blockFirstRow;
    private final List<byte[]> dataFirstRows = new ArrayList<>();
    private final List<long[]> dataLocations = new ArrayList<>();

    private long position;
    private Cell previous;
    private long cellCount;
    private long rowCount;
    private byte[] rowScratch = new byte[64];
    private boolean finished;
    private boolean closed;

    private StoreFileWriter(Builder b) throws IOException {
        this.path = b.path;
        if (Files.exists(path)) {
            throw new FileAlreadyExistsException(
                    path.toString(), null, "store files are immutable: delete the old file or write to a new name");
        }
        Path dir = path.toAbsolutePath().getParent();
        this.tempPath = Files.createTempFile(dir, path.getFileName().toString() + ".", ".writing");
        this.channel = FileChannel.open(tempPath, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        this.dataBlockSize = b.dataBlockSize;
        this.indexBlockSize = b.indexBlockSize;
        this.bloom = new RowBloomWriter(new RowBloom(b.bloomFalsePositiveRate, b.bloomChunkSize));
        this.block = new byte[StoreFileFormat.BLOCK_HEADER_SIZE + dataBlockSize + dataBlockSize / 4];
    }

    public static Builder builder(Path path) {
        return new Builder(path);
    }

    /** Options of a new store file. */
    public static final class Builder {
        private final Path path;
        private int dataBlockSize = DEFAULT_DATA_BLOCK_SIZE;
        private int indexBlockSize = DEFAULT_INDEX_BLOCK_SIZE;
        private int bloomChunkSize = DEFAULT_BLOOM_CHUNK_SIZE;
        private double bloomFalsePositiveRate = DEFAULT_BLOOM_FALSE_POSITIVE_RATE;

        private Builder(Path path) {
            this.path = path;
        }

        /** Target payload bytes of a data block (default 64 KB); a block closes once it reaches it. */
        public Builder dataBlockSize(int bytes) {
            this.dataBlockSize = requireAtLeast("data block size", bytes, 64);
            return this;
        }

        /** Target payload bytes of a leaf index block (default 64 KB). */
        public Builder indexBlockSize(int bytes) {
            this.indexBlockSize = requireAtLeast("index block size", bytes, 64);
            return this;
        }

        /** Bytes of bits in a bloom chunk (default 16 KB). */
        public Builder bloomChunkSize(int bytes) {
            this.bloomChunkSize = requireAtLeast("bloom chunk size", bytes, 64);
            return this;
        }

        /** Target false-positive rate of the row bloom filter (default 1%). */
        public Builder bloomFalsePositiveRate(double rate) {
            if (!(rate > 0 && rate <= 0.5)) {
                throw new IllegalArgumentException("bloom false-positive rate must be in (0, 0.5], got " + rate);
            }
            this.bloomFalsePositiveRate = rate;
            return this;
        }

        public StoreFileWriter open() throws IOException {
            return new StoreFileWriter(this);
        }

        private static int requireAtLeast(String what, int value, int min) {
            if (value < min || value > 64 * 1024 * 1024) {
                throw new IllegalArgumentException(what + " must be between " + min + " bytes and 64 MB, got " + value);
            }
            return value;
        }
    }

    /**
     * Appends the next cell.
     *
     * @throws IllegalArgumentException when the cell does not sort strictly after the previous one;
     *                                  the writer is unchanged and can go on
     */
    public void append(Cell cell) throws IOException {
        checkOpen();
        boolean newRow = previous == null || !CellComparator.matchingRows(previous, cell);
        if (previous != null) {
            int c = CellComparator.compareKeys(previous, cell);
            if (c >= 0) {
                throw new IllegalArgumentException("cells must be appended in CellComparator order (row, family, "
                        + "qualifier, newest timestamp first), each key once: cell #" + (cellCount + 1) + " "
                        + Cells.toString(cell) + (c == 0 ? " repeats the key of" : " sorts before")
                        + " the previous cell " + Cells.toString(previous));
            }
        }
        int length = KeyValueCodec.serializedLength(cell);
        if (blockLength + length > block.length) {
            block = Arrays.copyOf(block, Math.max(block.length * 2, blockLength + length));
        }
        boolean firstInBlock = blockLength == StoreFileFormat.BLOCK_HEADER_SIZE;
        if (newRow || firstInBlock) {
            int rowLength = copyRow(cell);
            if (newRow) {
                bloom.add(rowScratch, 0, rowLength);
                rowCount++;
            }
            if (firstInBlock) {
                blockFirstRow = Arrays.copyOf(rowScratch, rowLength);
            }
        }
        KeyValueCodec.write(cell, block, blockLength);
        previous = new ArrayCell(block, blockLength);
        blockLength += length;
        cellCount++;
        if (blockLength - StoreFileFormat.BLOCK_HEADER_SIZE >= dataBlockSize) {
            flushDataBlock();
        }
    }

    /** Cells appended so far. */
    public long cellCount() {
        return cellCount;
    }

    /**
     * Writes the index, bloom filter and trailer, and moves the file into place.
     *
     * @return what the file holds
     */
    public StoreFileInfo finish() throws IOException {
        checkOpen();
        try {
            flushDataBlock();
            long dataSectionEnd = position;

            IndexBlockBuilder leaf = new IndexBlockBuilder();
            IndexBlockBuilder root = new IndexBlockBuilder();
            for (int i = 0; i < dataFirstRows.size(); i++) {
                long[] location = dataLocations.get(i);
                leaf.add(dataFirstRows.get(i), location[0], (int) location[1]);
                if (leaf.payloadSize() >= indexBlockSize) {
                    writeLeaf(leaf, root);
                }
            }
            if (leaf.entryCount() > 0) {
                writeLeaf(leaf, root);
            }

            IndexBlockBuilder bloomIndex = new IndexBlockBuilder();
            List<RowBloomWriter.Chunk> chunks = bloom.finish();
            for (RowBloomWriter.Chunk chunk : chunks) {
                long offset = writeBlock(BlockType.BLOOM, chunk.payload(), chunk.payload().length);
                bloomIndex.add(chunk.firstRow(), offset, (int) (position - offset));
            }
            long rootOffset = writeBlock(BlockType.INDEX, root.toPayload());
            long bloomIndexOffset = writeBlock(BlockType.INDEX, bloomIndex.toPayload());

            Trailer trailer = new Trailer(
                    dataFirstRows.size(),
                    root.entryCount(),
                    chunks.size(),
                    dataSectionEnd,
                    rootOffset,
                    bloomIndexOffset,
                    cellCount,
                    rowCount);
            write(trailer.encode(), StoreFileFormat.TRAILER_SIZE);
            channel.force(true);
            channel.close();
            moveIntoPlace();
            finished = true;
            return new StoreFileInfo(
                    cellCount,
                    rowCount,
                    dataFirstRows.size(),
                    root.entryCount(),
                    chunks.size(),
                    dataSectionEnd,
                    position);
        } finally {
            if (!finished) {
                close();
            }
        }
    }

    /** Deletes the temporary file unless {@link #finish()} completed; idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!finished) {
            try {
                channel.close();
            } finally {
                Files.deleteIfExists(tempPath);
            }
        }
    }

    private void writeLeaf(IndexBlockBuilder leaf, IndexBlockBuilder root) throws IOException {
        byte[] firstRow = leaf.firstRow();
        long offset = writeBlock(BlockType.INDEX, leaf.toPayload());
        root.add(firstRow, offset, (int) (position - offset));
        leaf.clear();
    }

    private void flushDataBlock() throws IOException {
        int payloadLength = blockLength - StoreFileFormat.BLOCK_HEADER_SIZE;
        if (payloadLength == 0) {
            return;
        }
        long offset = position;
        frame(BlockType.DATA, block, payloadLength);
        write(block, blockLength);
        dataFirstRows.add(blockFirstRow);
        dataLocations.add(new long[] {offset, blockLength});
        // The previous cell must outlive the block buffer it points into.
        previous = new ArrayCell(KeyValueCodec.toBytes(previous), 0);
        blockLength = StoreFileFormat.BLOCK_HEADER_SIZE;
        blockFirstRow = null;
    }

    /** Writes a block whose payload is all of {@code payload}; returns its offset. */
    private long writeBlock(BlockType type, byte[] payload) throws IOException {
        return writeBlock(type, payload, payload.length);
    }

    private long writeBlock(BlockType type, byte[] payload, int payloadLength) throws IOException {
        byte[] framed = new byte[StoreFileFormat.BLOCK_HEADER_SIZE + payloadLength];
        System.arraycopy(payload, 0, framed, StoreFileFormat.BLOCK_HEADER_SIZE, payloadLength);
        frame(type, framed, payloadLength);
        long offset = position;
        write(framed, framed.length);
        return offset;
    }

    /** Fills the header of a block whose payload already sits after the header room of {@code framed}. */
    private void frame(BlockType type, byte[] framed, int payloadLength) {
        ByteBuffer header = ByteBuffer.wrap(framed, 0, StoreFileFormat.BLOCK_HEADER_SIZE);
        header.put(type.code()).putInt(payloadLength);
        crc.reset();
        crc.update(framed, 0, StoreFileFormat.BLOCK_HEADER_CHECKED);
        crc.update(framed, StoreFileFormat.BLOCK_HEADER_SIZE, payloadLength);
        header.putInt((int) crc.getValue());
    }

    private void write(byte[] bytes, int length) throws IOException {
        ByteBuffer src = ByteBuffer.wrap(bytes, 0, length);
        while (src.hasRemaining()) {
            channel.write(src);
        }
        position += length;
    }

    /** Copies the cell's row to the start of {@link #rowScratch}; returns its length. */
    private int copyRow(Cell cell) {
        int length = cell.getRowLength();
        if (rowScratch.length < length) {
            rowScratch = new byte[Math.max(length, rowScratch.length * 2)];
        }
        if (cell instanceof ByteBufferCell bc) {
            bc.getRowByteBuffer().get(bc.getRowPosition(), rowScratch, 0, length);
        } else {
            System.arraycopy(cell.getRowArray(), cell.getRowOffset(), rowScratch, 0, length);
        }
        return length;
    }

    private void moveIntoPlace() throws IOException {
        try {
            Files.move(tempPath, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tempPath, path);
        }
    }

    private void checkOpen() {
        if (finished || closed) {
            throw new IllegalStateException(
                    "store file writer for " + path + " is already " + (finished ? "finished" : "closed"));
        }
    }
}
