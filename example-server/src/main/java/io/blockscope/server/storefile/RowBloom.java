package io.blockscope.server.storefile;

import io.blockscope.server.buffer.ByteBuff;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The per-row bloom filter's math: sizing from a target false-positive rate, the row hash, and the
 * probe sequence. Shared by the writer (which sets bits) and the reader (which tests them in a
 * chunk payload in place), so both always agree.
 *
 * <p>One 64-bit hash per row feeds Kirsch-Mitzenmacher double hashing: probe {@code i} is
 * {@code h1 + i * h2} modulo the chunk's bit count, with {@code h2} derived from {@code h1} and
 * forced odd. The hash mixes eight bytes at a time with multiply-rotate steps and ends with a
 * 64-bit avalanche finalizer; it is part of the file format (version 1).
 */
final class RowBloom {

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = 0x2545F4914F6CDD1DL;
    private static final long M1 = 0x87C37B91114253D5L;
    private static final long M2 = 0x4CF5AD432745937FL;
    private static final double LN2 = Math.log(2);

    /** Chunk payload header: hash count and bit count. */
    static final int CHUNK_HEADER = 8;

    private final double bitsPerRow;
    private final int hashCount;
    private final int maxRowsPerChunk;

    /**
     * @param falsePositiveRate target rate, in (0, 0.5]
     * @param chunkBytes        bytes of bits in a full chunk
     */
    RowBloom(double falsePositiveRate, int chunkBytes) {
        if (!(falsePositiveRate > 0 && falsePositiveRate <= 0.5)) {
            throw new IllegalArgumentException(
                    "bloom false-positive rate must be in (0, 0.5], got " + falsePositiveRate);
        }
        if (chunkBytes < 64) {
            throw new IllegalArgumentException("bloom chunk size must be at least 64 bytes, got " + chunkBytes);
        }
        this.bitsPerRow = -Math.log(falsePositiveRate) / (LN2 * LN2);
        this.hashCount = Math.max(1, (int) Math.round(bitsPerRow * LN2));
        this.maxRowsPerChunk = Math.max(1, (int) (chunkBytes * 8L / bitsPerRow));
    }

    int maxRowsPerChunk() {
        return maxRowsPerChunk;
    }

    /** A chunk payload holding {@code count} row hashes, sized so that it meets the target rate. */
    byte[] chunk(long[] hashes, int count) {
        int bitCount = (int) Math.min(Integer.MAX_VALUE - 63, Math.max(64, (long) Math.ceil(count * bitsPerRow)));
        bitCount = (bitCount + 63) & ~63;
        byte[] payload = new byte[CHUNK_HEADER + bitCount / 8];
        ByteBuff out = ByteBuff.wrap(payload);
        out.putInt(0, hashCount);
        out.putInt(4, bitCount);
        for (int r = 0; r < count; r++) {
            long h1 = hashes[r];
            long h2 = second(h1);
            for (int i = 0; i < hashCount; i++) {
                int bit = probe(h1, h2, i, bitCount);
                payload[CHUNK_HEADER + (bit >>> 3)] |= (byte) (1 << (bit & 7));
            }
        }
        return payload;
    }

    /**
     * Whether the chunk may hold the row with hash {@code h1}.
     *
     * @throws IllegalStateException when the chunk header is inconsistent with its size
     */
    static boolean mightContain(ByteBuff chunk, long h1) {
        int hashCount = chunk.getInt(0);
        int bitCount = chunk.getInt(4);
        if (hashCount < 1
                || hashCount > 64
                || bitCount <= 0
                || (bitCount & 7) != 0
                || CHUNK_HEADER + bitCount / 8 != chunk.capacity()) {
            throw new IllegalStateException("bloom chunk header (hashes " + hashCount + ", bits " + bitCount
                    + ") does not match its " + chunk.capacity() + " bytes");
        }
        long h2 = second(h1);
        for (int i = 0; i < hashCount; i++) {
            int bit = probe(h1, h2, i, bitCount);
            if ((chunk.get(CHUNK_HEADER + (bit >>> 3)) & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    private static int probe(long h1, long h2, int i, int bitCount) {
        return (int) Long.remainderUnsigned(h1 + i * h2, bitCount);
    }

    private static long second(long h1) {
        return finish(h1 ^ M2) | 1;
    }

    /** The version-1 row hash. */
    static long hash(byte[] row, int offset, int length) {
        long h = SEED ^ (length * M1);
        int i = offset;
        int end = offset + length;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            h ^= mix((long) LONG_LE.get(row, i));
            h = Long.rotateLeft(h, 27) * 5 + 0x52DCE729L;
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (row[i] & 0xFFL) << shift;
        }
        h ^= mix(tail);
        return finish(h);
    }

    private static long mix(long k) {
        k *= M1;
        k = Long.rotateLeft(k, 31);
        return k * M2;
    }

    private static long finish(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
