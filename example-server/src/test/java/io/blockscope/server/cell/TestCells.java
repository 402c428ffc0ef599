package io.blockscope.server.cell;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.TestBuffers;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** The same cell in every form the read path meets, for cross-kind tests. */
final class TestCells {

    private TestCells() {}

    record Kind(String name, Function<ArrayCell, Cell> factory) {
        Cell of(ArrayCell cell) {
            return factory.apply(cell);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Kind> kinds() {
        return List.of(
                new Kind("ArrayCell", c -> c),
                new Kind("ArrayCell at an offset", TestCells::arrayAtOffset),
                new Kind("BufferedKeyValue, heap", c -> buffered(c, false)),
                new Kind("BufferedKeyValue, direct", c -> buffered(c, true)),
                new Kind("decoded across a 4 MB boundary", TestCells::straddling),
                new Kind("plain Cell", PlainCell::new),
                new Kind("other ByteBufferCell", c -> new CountingCell(buffered(c, true))));
    }

    static ArrayCell cell(String row, String family, String qualifier, long timestamp, String value) {
        return ArrayCell.of(row.getBytes(), family.getBytes(), qualifier.getBytes(), timestamp, value.getBytes());
    }

    static ArrayCell arrayAtOffset(ArrayCell c) {
        byte[] bytes = KeyValueCodec.toBytes(c);
        byte[] bigger = new byte[bytes.length + 20];
        Arrays.fill(bigger, (byte) 0x5A);
        System.arraycopy(bytes, 0, bigger, 13, bytes.length);
        return new ArrayCell(bigger, 13);
    }

    /** A BufferedKeyValue at position 5 of a buffer with junk around the cell. */
    static BufferedKeyValue buffered(ArrayCell c, boolean direct) {
        byte[] bytes = KeyValueCodec.toBytes(c);
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(bytes.length + 9) : ByteBuffer.allocate(bytes.length + 9);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) 0xA5);
        }
        b.put(5, bytes);
        return new BufferedKeyValue(b, 5);
    }

    /** The cell decoded from a block that crosses two 4 MB buckets in the middle of the cell. */
    static Cell straddling(ArrayCell c) {
        byte[] bytes = KeyValueCodec.toBytes(c);
        ByteBuff block = TestBuffers.straddling(bytes, KeyValueFormat.ROW_OFFSET + 1);
        return KeyValueCodec.decode(block, 0);
    }

    /** A Cell that is neither an ArrayCell nor buffer-backed: every component in its own array. */
    record PlainCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value, byte[] tags)
            implements Cell {

        PlainCell(Cell c) {
            this(
                    Arrays.copyOfRange(c.getRowArray(), c.getRowOffset(), c.getRowOffset() + c.getRowLength()),
                    Arrays.copyOfRange(
                            c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyOffset() + c.getFamilyLength()),
                    Arrays.copyOfRange(
                            c.getQualifierArray(),
                            c.getQualifierOffset(),
                            c.getQualifierOffset() + c.getQualifierLength()),
                    c.getTimestamp(),
                    Arrays.copyOfRange(c.getValueArray(), c.getValueOffset(), c.getValueOffset() + c.getValueLength()),
                    Arrays.copyOfRange(c.getTagsArray(), c.getTagsOffset(), c.getTagsOffset() + c.getTagsLength()));
        }

        @Override
        public byte[] getRowArray() {
            return row;
        }

        @Override
        public int getRowOffset() {
            return 0;
        }

        @Override
        public short getRowLength() {
            return (short) row.length;
        }

        @Override
        public byte[] getFamilyArray() {
            return family;
        }

        @Override
        public int getFamilyOffset() {
            return 0;
        }

        @Override
        public byte getFamilyLength() {
            return (byte) family.length;
        }

        @Override
        public byte[] getQualifierArray() {
            return qualifier;
        }

        @Override
        public int getQualifierOffset() {
            return 0;
        }

        @Override
        public int getQualifierLength() {
            return qualifier.length;
        }

        @Override
        public long getTimestamp() {
            return timestamp;
        }

        @Override
        public byte[] getValueArray() {
            return value;
        }

        @Override
        public int getValueOffset() {
            return 0;
        }

        @Override
        public int getValueLength() {
            return value.length;
        }

        @Override
        public byte[] getTagsArray() {
            return tags;
        }

        @Override
        public int getTagsOffset() {
            return 0;
        }

        @Override
        public int getTagsLength() {
            return tags.length;
        }
    }

    /**
     * A buffer-backed cell that is not a BufferedKeyValue and counts its copy-to-heap fallbacks, so a
     * test can prove that comparators and codecs never take them.
     */
    static final class CountingCell extends ByteBufferCell {
        static final AtomicInteger COPIES = new AtomicInteger();
        private final BufferedKeyValue delegate;

        CountingCell(BufferedKeyValue delegate) {
            this.delegate = delegate;
        }

        @Override
        protected byte[] copyRow() {
            COPIES.incrementAndGet();
            return super.copyRow();
        }

        @Override
        protected byte[] copyFamily() {
            COPIES.incrementAndGet();
            return super.copyFamily();
        }

        @Override
        protected byte[] copyQualifier() {
            COPIES.incrementAndGet();
            return super.copyQualifier();
        }

        @Override
        protected byte[] copyValue() {
            COPIES.incrementAndGet();
            return super.copyValue();
        }

        @Override
        protected byte[] copyTags() {
            COPIES.incrementAndGet();
            return super.copyTags();
        }

        @Override
        public ByteBuffer getRowByteBuffer() {
            return delegate.getRowByteBuffer();
        }

        @Override
        public int getRowPosition() {
            return delegate.getRowPosition();
        }

        @Override
        public short getRowLength() {
            return delegate.getRowLength();
        }

        @Override
        public ByteBuffer getFamilyByteBuffer() {
            return delegate.getFamilyByteBuffer();
        }

        @Override
        public int getFamilyPosition() {
            return delegate.getFamilyPosition();
        }

        @Override
        public byte getFamilyLength() {
            return delegate.getFamilyLength();
        }

        @Override
        public ByteBuffer getQualifierByteBuffer() {
            return delegate.getQualifierByteBuffer();
        }

        @Override
        public int getQualifierPosition() {
            return delegate.getQualifierPosition();
        }

        @Override
        public int getQualifierLength() {
            return delegate.getQualifierLength();
        }

        @Override
        public long getTimestamp() {
            return delegate.getTimestamp();
        }

        @Override
        public ByteBuffer getValueByteBuffer() {
            return delegate.getValueByteBuffer();
        }

        @Override
        public int getValuePosition() {
            return delegate.getValuePosition();
        }

        @Override
        public int getValueLength() {
            return delegate.getValueLength();
        }

        @Override
        public ByteBuffer getTagsByteBuffer() {
            return delegate.getTagsByteBuffer();
        }

        @Override
        public int getTagsPosition() {
            return delegate.getTagsPosition();
        }

        @Override
        public int getTagsLength() {
            return delegate.getTagsLength();
        }
    }
}
