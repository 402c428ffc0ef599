package io.blockscope.server.storefile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the bloom chunks of a file as rows arrive in order: a chunk closes after
 * {@link RowBloom#maxRowsPerChunk()} rows and is sized to the rows it holds, so every chunk,
 * including a short last one, meets the target false-positive rate.
 */
final class RowBloomWriter {

    record Chunk(byte[] firstRow, byte[] payload) {}

    private final RowBloom bloom;
    private final long[] hashes;
    private final List<Chunk> chunks = new ArrayList<>();
    private byte[] firstRow;
    private int count;

    RowBloomWriter(RowBloom bloom) {
        this.bloom = bloom;
        this.hashes = new long[bloom.maxRowsPerChunk()];
    }

    /** Adds a row; rows arrive sorted and each once. */
    void add(byte[] row, int offset, int length) {
        if (count == hashes.length) {
            closeChunk();
        }
        if (count == 0) {
            firstRow = Arrays.copyOfRange(row, offset, offset + length);
        }
        hashes[count++] = RowBloom.hash(row, offset, length);
    }

    /** All chunks, closing the open one. */
    List<Chunk> finish() {
        if (count > 0) {
            closeChunk();
        }
        return chunks;
    }

    private void closeChunk() {
        chunks.add(new Chunk(firstRow, bloom.chunk(hashes, count)));
        count = 0;
        firstRow = null;
    }
}
