package io.blockscope.hbaseit.driver;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.NoTagsByteBufferKeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.filter.ByteArrayComparable;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads offheap cells the expensive way: {@code getValueArray()} on a {@code ByteBufferKeyValue}
 * over a direct buffer clones the value onto the heap, as a filter or coprocessor that is not
 * ByteBuffer-aware would. Also reads the same cell through the heap {@code KeyValue} it was encoded
 * from, whose arrays are not copies and must not be counted. Then the doors that copy without
 * {@code getXxxArray()}: {@code CellUtil.cloneValue} and {@code copyValueTo}, and a comparator that
 * inherits {@code ByteArrayComparable}'s copying {@code compareTo(ByteBuffer, int, int)}, compared
 * through {@code PrivateCellUtil.compareValue} as HBase's filters do; {@code
 * PrivateCellUtil.getValueAsBigDecimal}, which copies the unscaled bytes as {@code
 * BigDecimalColumnInterpreter} does for each cell an aggregate reads; and a {@code ByteBufferKeyValue}
 * over a heap buffer, whose copies are heap to heap and not counted. Then a tag's value, as the
 * AccessController reads a cell ACL: {@code Tag.cloneValue} and {@code Tag.copyValueTo} on the tags
 * of an offheap cell (counted as tags), of the same cell over a heap buffer and of a heap
 * {@code KeyValue} (not counted). Needs hbase-common only.
 *
 * <p>Checkpoint {@code copied} reports what it copied: the count and bytes per component.
 */
public final class CopyingReader {

    static final int VALUE_BYTES = 1_000;
    static final int VALUE_READS = 5;
    static final int QUALIFIER_READS = 2;
    static final int HEAP_READS = 7;
    static final int CLONES = 3;
    static final int COPIES_TO = 2;
    static final int COMPARES = 4;
    static final int TAG_CLONES = 3;
    static final int TAG_COPIES_TO = 2;
    /** A tag type HBase does not reserve, with a value as long as a small cell ACL. */
    static final byte TAG_TYPE = (byte) 99;

    static final int TAG_VALUE_BYTES = 23;
    static final int CONVERSIONS = 3;

    private final DriverConsole console = new DriverConsole();

    public static void main(String[] args) throws Exception {
        new CopyingReader().run();
    }

    private void run() throws Exception {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) 'v');
        KeyValue onHeap = new KeyValue(bytes("row-0001"), bytes("f"), bytes("qualifier"), 1L, value);

        for (int i = 0; i < HEAP_READS; i++) {
            if (onHeap.getValueArray() != onHeap.getBuffer()) {
                throw new IllegalStateException("a heap KeyValue should hand out its own backing array");
            }
        }
        Cell offheap = new ByteBufferKeyValue(offheapCopy(onHeap), 0, onHeap.getLength());
        long valueBytes = readValues(offheap, value);
        Cell noTags = new NoTagsByteBufferKeyValue(offheapCopy(onHeap), 0, onHeap.getLength());
        long qualifierBytes = readQualifiers(noTags);
        long clonedBytes = cloneValues(offheap);
        long copiedIntoBytes = copyValuesInto(offheap);
        long comparedBytes = compareValues(offheap, new CopyingComparator(value));
        long convertedBytes = convertValues(offheap);
        Cell heapBacked = new ByteBufferKeyValue(ByteBuffer.wrap(onHeap.getBuffer()), 0, onHeap.getLength());
        for (int i = 0; i < HEAP_READS; i++) {
            CellUtil.cloneValue(heapBacked);
            heapBacked.getQualifierArray();
        }
        byte[] tagValue = new byte[TAG_VALUE_BYTES];
        Arrays.fill(tagValue, (byte) 't');
        KeyValue taggedOnHeap = new KeyValue(
                bytes("row-0002"),
                bytes("f"),
                bytes("qualifier"),
                1L,
                KeyValue.Type.Put,
                value,
                Collections.<Tag>singletonList(new ArrayBackedTag(TAG_TYPE, tagValue)));
        Cell tagged = new ByteBufferKeyValue(offheapCopy(taggedOnHeap), 0, taggedOnHeap.getLength());
        long tagClonedBytes = cloneTagValues(tagged);
        long tagCopiedBytes = copyTagValuesInto(tagged);
        Cell heapBackedTagged =
                new ByteBufferKeyValue(ByteBuffer.wrap(taggedOnHeap.getBuffer()), 0, taggedOnHeap.getLength());
        for (int i = 0; i < HEAP_READS; i++) {
            Tag.cloneValue(firstTag(heapBackedTagged));
            Tag.cloneValue(new ArrayBackedTag(TAG_TYPE, tagValue));
        }

        console.checkpoint(
                "copied",
                new DriverConsole.Fields()
                        .put("cell.class", offheap.getClass().getName())
                        .put("copies.value", VALUE_READS)
                        .put("copies.value.bytes", valueBytes)
                        .put("copies.cloned", CLONES)
                        .put("copies.cloned.bytes", clonedBytes)
                        .put("copies.into", COPIES_TO)
                        .put("copies.into.bytes", copiedIntoBytes)
                        .put("copies.compared", COMPARES)
                        .put("copies.compared.bytes", comparedBytes)
                        .put("copies.converted", CONVERSIONS)
                        .put("copies.converted.bytes", convertedBytes)
                        .put("copies.qualifier", QUALIFIER_READS)
                        .put("copies.qualifier.bytes", qualifierBytes)
                        .put("copies.tag.cloned", TAG_CLONES)
                        .put("copies.tag.cloned.bytes", tagClonedBytes)
                        .put("copies.tag.into", TAG_COPIES_TO)
                        .put("copies.tag.into.bytes", tagCopiedBytes)
                        .put("heap.reads", HEAP_READS));
    }

    /** The copy site the agent must report: this method, in this class. */
    private static long readValues(Cell cell, byte[] expected) {
        long copied = 0;
        for (int i = 0; i < VALUE_READS; i++) {
            byte[] value = cell.getValueArray();
            if (!Arrays.equals(value, expected)) {
                throw new IllegalStateException("offheap cell returned a different value");
            }
            copied += value.length;
        }
        return copied;
    }

    /** CellUtil's helpers reach the cell's buffer without getValueArray(): each is one value copy here. */
    private static long cloneValues(Cell cell) {
        long copied = 0;
        for (int i = 0; i < CLONES; i++) {
            copied += CellUtil.cloneValue(cell).length;
        }
        return copied;
    }

    private static long copyValuesInto(Cell cell) {
        long copied = 0;
        for (int i = 0; i < COPIES_TO; i++) {
            byte[] into = new byte[cell.getValueLength() + 8];
            copied += CellUtil.copyValueTo(cell, into, 8) - 8;
        }
        return copied;
    }

    /** As a value filter compares: the comparator's inherited buffer path copies the value. */
    private static long compareValues(Cell cell, ByteArrayComparable comparator) {
        long copied = 0;
        for (int i = 0; i < COMPARES; i++) {
            if (PrivateCellUtil.compareValue(cell, comparator) != 0) {
                throw new IllegalStateException("the comparator should match the cell's value");
            }
            copied += cell.getValueLength();
        }
        return copied;
    }

    /**
     * As BigDecimalColumnInterpreter reads a value: a 4-byte scale, then the unscaled value, copied
     * into a new array for its BigInteger (any 1,000 bytes decode).
     */
    private static long convertValues(Cell cell) {
        long copied = 0;
        for (int i = 0; i < CONVERSIONS; i++) {
            BigDecimal converted = PrivateCellUtil.getValueAsBigDecimal(cell);
            if (converted == null) {
                throw new IllegalStateException("the value should decode as a BigDecimal");
            }
            copied += cell.getValueLength() - Bytes.SIZEOF_INT;
        }
        return copied;
    }

    /** A user's comparator that does not override compareTo(ByteBuffer, int, int), like RegexStringComparator. */
    static final class CopyingComparator extends ByteArrayComparable {
        CopyingComparator(byte[] value) {
            super(value);
        }

        @Override
        public byte[] toByteArray() {
            return getValue();
        }

        @Override
        public int compareTo(byte[] value, int offset, int length) {
            return Bytes.compareTo(getValue(), 0, getValue().length, value, offset, length);
        }
    }

    /** As the AccessController parses a cell ACL from a tag that has no array. */
    private static long cloneTagValues(Cell cell) {
        long copied = 0;
        for (int i = 0; i < TAG_CLONES; i++) {
            copied += Tag.cloneValue(firstTag(cell)).length;
        }
        return copied;
    }

    private static long copyTagValuesInto(Cell cell) {
        long copied = 0;
        for (int i = 0; i < TAG_COPIES_TO; i++) {
            Tag tag = firstTag(cell);
            byte[] into = new byte[tag.getValueLength() + 8];
            Tag.copyValueTo(tag, into, 8);
            copied += tag.getValueLength();
        }
        return copied;
    }

    /**
     * The cell's first tag, as HBase iterates a ByteBufferExtendedCell's tags (PrivateCellUtil's
     * tagsIterator(Cell) takes an ExtendedCell in 3.0: its buffer overload is in every release).
     */
    private static Tag firstTag(Cell cell) {
        ByteBufferExtendedCell bb = (ByteBufferExtendedCell) cell;
        Iterator<Tag> tags =
                PrivateCellUtil.tagsIterator(bb.getTagsByteBuffer(), bb.getTagsPosition(), bb.getTagsLength());
        Tag tag = tags.next();
        if (tag.getType() != TAG_TYPE || tag.hasArray()) {
            throw new IllegalStateException("expected a buffer tag of type " + TAG_TYPE + ", got " + tag);
        }
        return tag;
    }

    private static long readQualifiers(Cell cell) {
        long copied = 0;
        for (int i = 0; i < QUALIFIER_READS; i++) {
            copied += cell.getQualifierArray().length;
        }
        return copied;
    }

    private static ByteBuffer offheapCopy(KeyValue kv) {
        ByteBuffer direct = ByteBuffer.allocateDirect(kv.getLength());
        direct.put(kv.getBuffer(), kv.getOffset(), kv.getLength());
        direct.flip();
        return direct;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
