package io.blockscope.hbasers.server;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.util.ByteBufferUtils;

/**
 * HBase's {@code BinaryComponentComparator} without the copy of the whole value: it overrides only
 * {@code compareTo(byte[], int, int)}, so an offheap value goes through {@code ByteArrayComparable}'s
 * default, which copies all of it to compare a slice. This compares the slice in place. Test code,
 * sent by class name in the request and built on the RegionServer by its own {@link #parseFrom}.
 */
public class InPlaceBinaryComponentComparator extends BinaryComponentComparator {

    /** The stock comparator's offset is private. */
    private final int componentOffset;

    public InPlaceBinaryComponentComparator(byte[] value, int offset) {
        super(value, offset);
        this.componentOffset = offset;
    }

    /** The stock comparison ({@code Bytes.compareTo} of the component and the slice), in the buffer. */
    @Override
    public int compareTo(ByteBuffer value, int offset, int length) {
        byte[] component = getValue();
        return ByteBufferUtils.compareTo(
                component, 0, component.length, value, offset + componentOffset, component.length);
    }

    /**
     * The stock serialization (the inherited {@code toByteArray} writes value and offset), read back
     * into this class: HBase calls {@code parseFrom} on the class the request names, and the inherited
     * static would build the stock comparator.
     */
    public static InPlaceBinaryComponentComparator parseFrom(byte[] pbBytes) throws DeserializationException {
        try {
            ComparatorProtos.BinaryComponentComparator proto =
                    ComparatorProtos.BinaryComponentComparator.parseFrom(pbBytes);
            return new InPlaceBinaryComponentComparator(proto.getValue().toByteArray(), proto.getOffset());
        } catch (InvalidProtocolBufferException e) {
            throw new DeserializationException(e);
        }
    }
}
