package io.blockscope.server.storefile;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.Cell;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/** Data sets and block sources for store file tests. */
final class TestStoreFiles {

    static final byte[] FAMILY = "f".getBytes();

    private TestStoreFiles() {}

    static byte[] row(int i) {
        return String.format("row-%08d", i).getBytes();
    }

    /** A row key that sorts between {@code row(i)} and {@code row(i + 1)} and is in no file. */
    static byte[] absentRow(int i) {
        return String.format("row-%08d~", i).getBytes();
    }

    /**
     * Sorted cells: {@code rows} rows (every other row index, so the odd ones are absent), each with
     * 1..4 qualifiers of random values; every {@code wideEvery}-th row is wide (40 cells of 400
     * bytes) so it spans several small data blocks.
     */
    static List<ArrayCell> cells(int rows, int wideEvery, long seed) {
        Random random = new Random(seed);
        List<ArrayCell> cells = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            byte[] row = row(2 * r);
            boolean wide = wideEvery > 0 && r % wideEvery == wideEvery / 2;
            int qualifiers = wide ? 40 : 1 + random.nextInt(4);
            for (int q = 0; q < qualifiers; q++) {
                byte[] value = new byte[wide ? 400 : random.nextInt(300)];
                random.nextBytes(value);
                cells.add(ArrayCell.of(row, FAMILY, String.format("q%02d", q).getBytes(), 1000 + r, value));
            }
        }
        return cells;
    }

    static StoreFileInfo write(Path path, List<? extends Cell> cells, StoreFileWriter.Builder options)
            throws IOException {
        try (StoreFileWriter writer = options.open()) {
            for (Cell c : cells) {
                writer.append(c);
            }
            return writer.finish();
        }
    }

    /** Small blocks so that a few thousand cells exercise many data, leaf index and bloom blocks. */
    static StoreFileWriter.Builder small(Path path) {
        return StoreFileWriter.builder(path)
                .dataBlockSize(4096)
                .indexBlockSize(256)
                .bloomChunkSize(64);
    }

    /**
     * Serves every block as {@link Block.MemoryType#SHARED} direct memory, as the bucket cache does in
     * zero-copy mode; with {@code split}, data blocks are laid across two direct buffers (a block that
     * straddles two buckets).
     */
    static final class SharedDirectSource implements BlockSource {
        private final BlockSource file;
        private final boolean split;

        SharedDirectSource(BlockSource file, boolean split) {
            this.file = file;
            this.split = split;
        }

        @Override
        public Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException {
            Block b = file.getBlock(key, expectedType);
            byte[] bytes = b.data().toBytes(0, b.length());
            ByteBuff data;
            if (split && b.type() == BlockType.DATA && bytes.length > 1) {
                int half = bytes.length / 2 + (int) (key.offset() % 97);
                half = Math.min(half, bytes.length - 1);
                data = ByteBuff.wrap(direct(bytes, 0, half), direct(bytes, half, bytes.length - half));
            } else {
                data = ByteBuff.wrap(direct(bytes, 0, bytes.length));
            }
            return new Block(b.type(), data, Block.MemoryType.SHARED);
        }

        @Override
        public void returnBlock(BlockCacheKey key, Block block) {}

        private static ByteBuffer direct(byte[] bytes, int from, int length) {
            return ByteBuffer.allocateDirect(length).put(0, bytes, from, length);
        }
    }

    /** Counts references handed out and given back, per key, like a cache's refcounts. */
    static final class CountingSource implements BlockSource {
        private final BlockSource delegate;
        final Map<BlockCacheKey, AtomicInteger> outstanding = new HashMap<>();
        final Map<BlockType, AtomicInteger> gets = new HashMap<>();

        CountingSource(BlockSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public synchronized Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException {
            Block b = delegate.getBlock(key, expectedType);
            outstanding.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            gets.computeIfAbsent(expectedType, k -> new AtomicInteger()).incrementAndGet();
            return b;
        }

        @Override
        public synchronized void returnBlock(BlockCacheKey key, Block block) {
            AtomicInteger n = outstanding.get(key);
            if (n == null || n.decrementAndGet() < 0) {
                throw new AssertionError("returned " + key + " more often than it was handed out");
            }
            delegate.returnBlock(key, block);
        }

        synchronized int outstandingReferences() {
            return outstanding.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        synchronized int gets(BlockType type) {
            AtomicInteger n = gets.get(type);
            return n == null ? 0 : n.get();
        }
    }
}
