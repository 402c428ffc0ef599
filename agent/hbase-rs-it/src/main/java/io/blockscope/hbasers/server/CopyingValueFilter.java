package io.blockscope.hbasers.server;

import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.filter.FilterBase;

/**
 * The copy an operator's filter makes without knowing it: {@code getValueArray()} on a cell whose
 * value lives offheap in a BucketCache block clones the value onto the heap. The filter counts each
 * such copy itself (heap cells hand out their own array and are not copies), then keeps the cell or,
 * built with {@code keep=false}, skips it (a server-side load that sends nothing back). A filter on
 * the server class path must implement {@code toByteArray} and {@code parseFrom}.
 */
public final class CopyingValueFilter extends FilterBase {

    static {
        ServerLedger.touch();
    }

    private final boolean keep;
    /** Sums the bytes it reads, so the JIT cannot drop the copy. */
    private long checksum;

    public CopyingValueFilter(boolean keep) {
        this.keep = keep;
    }

    @Override
    public ReturnCode filterCell(Cell cell) {
        byte[] value = cell.getValueArray();
        if (cell instanceof ByteBufferExtendedCell) {
            ServerLedger.INSTANCE.copied(value.length);
        }
        checksum += value[0];
        return keep ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW;
    }

    @Override
    public byte[] toByteArray() {
        return new byte[] {(byte) (keep ? 1 : 0)};
    }

    /** How the RegionServer rebuilds the filter from the client's request. */
    public static CopyingValueFilter parseFrom(byte[] bytes) {
        return new CopyingValueFilter(bytes.length > 0 && bytes[0] == 1);
    }

    @Override
    public String toString() {
        return "CopyingValueFilter(keep=" + keep + ", " + checksum + ")";
    }
}
