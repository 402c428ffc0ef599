package io.blockscope.server.bench;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.ByteBuffers;
import io.blockscope.server.buffer.RangeComparer;
import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.CellComparator;
import io.blockscope.server.cell.KeyValueCodec;
import io.blockscope.server.storefile.CorruptStoreFileException;
import io.blockscope.server.storefile.DataBlockScanner;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Row compares: the seed's experiment (two equal 135-byte keys, on heap arrays and in direct
 * buffers), vectorized JDK mismatch against a naive byte loop; then the same compares the way the
 * read path makes them (cell against cell, seek key against a row in a 64 KB direct block), checked
 * with {@code -prof gc} for allocation, with the reusable views of {@code RangeComparer} A/B'd
 * against a {@code slice()} view per side (the variant that allocates when C2 does not remove it).
 *
 * <pre>example-server/jmh.sh RowCompare -f 1 -wi 2 -i 3 -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RowCompareBenchmark {

    private static final int KEY_LENGTH = 135;

    private byte[] heapA;
    private byte[] heapB;
    private ByteBuffer directA;
    private ByteBuffer directB;
    private ByteBuff heapViewA;
    private ByteBuff heapViewB;
    private ByteBuff directViewA;
    private ByteBuff directViewB;

    private BufferedKeyValue directCellA;
    private BufferedKeyValue directCellB;
    private ArrayCell arrayCell;

    private DataBlockScanner blockScanner;
    private ByteBuffer directBlock;
    private byte[] lastRowInBlock;

    @Setup
    public void setup() throws CorruptStoreFileException {
        heapA = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++) {
            heapA[i] = (byte) ('a' + i % 26);
        }
        heapB = heapA.clone();
        directA = ByteBuffer.allocateDirect(KEY_LENGTH).put(0, heapA);
        directB = ByteBuffer.allocateDirect(KEY_LENGTH).put(0, heapB);
        heapViewA = ByteBuff.wrap(heapA.clone());
        heapViewB = ByteBuff.wrap(heapB.clone());
        directViewA = ByteBuff.wrap(directA);
        directViewB = ByteBuff.wrap(directB);

        // Two equal cells with 135-byte rows, each at an odd position of its own direct block.
        arrayCell = ArrayCell.of(heapA, "f".getBytes(), "qualifier".getBytes(), 42L, new byte[100]);
        directCellA = directCell(arrayCell, 1001);
        directCellB = directCell(arrayCell, 3333);

        // A 64 KB direct data block of cells with 135-byte rows differing only in their last bytes.
        int cells = 0;
        int length = 0;
        byte[] block = new byte[64 * 1024];
        while (true) {
            byte[] row = heapA.clone();
            row[KEY_LENGTH - 2] = (byte) (cells >>> 8);
            row[KEY_LENGTH - 1] = (byte) cells;
            ArrayCell c = ArrayCell.of(row, "f".getBytes(), "q".getBytes(), 1L, new byte[200]);
            if (length + c.serializedLength() > block.length) {
                break;
            }
            length += KeyValueCodec.write(c, block, length);
            lastRowInBlock = row;
            cells++;
        }
        ByteBuffer direct = ByteBuffer.allocateDirect(length).put(0, block, 0, length);
        directBlock = direct;
        blockScanner = new DataBlockScanner(
                new Block(BlockType.DATA, ByteBuff.wrap(direct), Block.MemoryType.SHARED),
                new BlockCacheKey("bench", 0));
    }

    private static BufferedKeyValue directCell(ArrayCell cell, int position) {
        ByteBuffer block = ByteBuffer.allocateDirect(64 * 1024);
        KeyValueCodec.write(cell, ByteBuff.wrap(block), position);
        return new BufferedKeyValue(block, position);
    }

    // --- the seed's experiment: 135 equal bytes ------------------------------------------------

    @Benchmark
    public int heapVectorized() {
        return ByteBuff.compareTo(heapViewA, 0, KEY_LENGTH, heapViewB, 0, KEY_LENGTH);
    }

    @Benchmark
    public int heapArraysCompareUnsigned() {
        return Arrays.compareUnsigned(heapA, 0, KEY_LENGTH, heapB, 0, KEY_LENGTH);
    }

    @Benchmark
    public int heapNaiveLoop() {
        byte[] a = heapA;
        byte[] b = heapB;
        for (int i = 0; i < KEY_LENGTH; i++) {
            int d = (a[i] & 0xFF) - (b[i] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    @Benchmark
    public int directVectorized() {
        return ByteBuff.compareTo(directViewA, 0, KEY_LENGTH, directViewB, 0, KEY_LENGTH);
    }

    @Benchmark
    public int directNaiveLoop() {
        ByteBuffer a = directA;
        ByteBuffer b = directB;
        for (int i = 0; i < KEY_LENGTH; i++) {
            int d = (a.get(i) & 0xFF) - (b.get(i) & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    @Benchmark
    public int directVsArrayVectorized() {
        return ByteBuff.compareTo(directViewA, 0, KEY_LENGTH, heapB, 0, KEY_LENGTH);
    }

    // --- as the read path compares ------------------------------------------------------------

    @Benchmark
    public int cellRowsDirectVsDirect() {
        return CellComparator.compareRows(directCellA, directCellB);
    }

    @Benchmark
    public int cellKeysDirectVsArray() {
        return CellComparator.compareKeys(directCellA, arrayCell);
    }

    /**
     * Baseline for the A/B above: the same whole-key compare with a {@code slice()} view per side, as
     * {@code ByteBuffers} first did. Shows whether C2 removes the slices in a realistic caller.
     */
    @Benchmark
    public int cellKeysDirectVsArraySliceViews() {
        return SliceViews.compareKeys(directCellA, arrayCell);
    }

    @Benchmark
    public int directVsArraySliceViews() {
        return SliceViews.compare(directA, 0, KEY_LENGTH, heapB, 0, KEY_LENGTH);
    }

    /** Seek to the last row of a 64 KB direct block: one row compare per cell, about 160 of them. */
    @Benchmark
    public boolean seekThroughDirectBlock() throws CorruptStoreFileException {
        blockScanner.rewind();
        return blockScanner.seekToRow(lastRowInBlock);
    }

    /**
     * The same seek as {@link #seekThroughDirectBlock} reduced to its row compares on the raw
     * buffer: with {@code ByteBuffers} (a thread-local lookup per compare) ...
     */
    @Benchmark
    public int seekLoopByteBuffers() {
        ByteBuffer b = directBlock;
        byte[] row = lastRowInBlock;
        int at = 0;
        while (at < b.capacity()) {
            if (ByteBuffers.compare(b, at + 12, b.getShort(at + 10), row, 0, row.length) >= 0) {
                return at;
            }
            at += cellLength(b, at);
        }
        return at;
    }

    /** ... with this thread's {@code RangeComparer}, fetched once per seek as DataBlockScanner does ... */
    @Benchmark
    public int seekLoopRangeComparer() {
        ByteBuffer b = directBlock;
        byte[] row = lastRowInBlock;
        RangeComparer comparer = ByteBuffers.comparer();
        int at = 0;
        while (at < b.capacity()) {
            if (comparer.compare(b, at + 12, b.getShort(at + 10), row, 0, row.length) >= 0) {
                return at;
            }
            at += cellLength(b, at);
        }
        return at;
    }

    /** ... and with a {@code slice()} view per side and compare. */
    @Benchmark
    public int seekLoopSliceViews() {
        ByteBuffer b = directBlock;
        byte[] row = lastRowInBlock;
        int at = 0;
        while (at < b.capacity()) {
            if (SliceViews.compare(b, at + 12, b.getShort(at + 10), row, 0, row.length) >= 0) {
                return at;
            }
            at += cellLength(b, at);
        }
        return at;
    }

    private static int cellLength(ByteBuffer b, int at) {
        return 10 + b.getInt(at) + b.getInt(at + 4) + (b.getShort(at + 8) & 0xFFFF);
    }

    /** The slice-per-compare variant of {@code ByteBuffers} and {@code CellComparator}, for comparison only. */
    private static final class SliceViews {

        static int compareKeys(BufferedKeyValue a, ArrayCell b) {
            int c = compare(
                    a.getRowByteBuffer(),
                    a.getRowPosition(),
                    a.getRowLength(),
                    b.getRowArray(),
                    b.getRowOffset(),
                    b.getRowLength());
            if (c != 0) {
                return c;
            }
            c = compare(
                    a.getFamilyByteBuffer(),
                    a.getFamilyPosition(),
                    a.getFamilyLength(),
                    b.getFamilyArray(),
                    b.getFamilyOffset(),
                    b.getFamilyLength());
            if (c != 0) {
                return c;
            }
            c = compare(
                    a.getQualifierByteBuffer(),
                    a.getQualifierPosition(),
                    a.getQualifierLength(),
                    b.getQualifierArray(),
                    b.getQualifierOffset(),
                    b.getQualifierLength());
            if (c != 0) {
                return c;
            }
            return Long.compare(b.getTimestamp(), a.getTimestamp());
        }

        static int compare(ByteBuffer a, int aPos, int aLength, byte[] b, int bOffset, int bLength) {
            int common = Math.min(aLength, bLength);
            int i = a.slice(aPos, common)
                    .mismatch(ByteBuffer.wrap(b, bOffset, common).slice());
            if (i >= 0) {
                return Byte.toUnsignedInt(a.get(aPos + i)) - Byte.toUnsignedInt(b[bOffset + i]);
            }
            return aLength - bLength;
        }
    }
}
