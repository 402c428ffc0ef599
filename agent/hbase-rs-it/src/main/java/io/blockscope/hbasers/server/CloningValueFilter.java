package io.blockscope.hbasers.server;

import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.filter.FilterBase;

/**
 * The idiom of HBase's reference guide: {@code CellUtil.cloneValue(cell)}, which on an offheap cell
 * copies the value straight from its buffer without ever calling {@code getValueArray()}. Counts in
 * the {@link ServerLedger} each clone whose source was an offheap (direct) buffer, then skips the
 * row, so a scan through it copies every value on the server and sends nothing back.
 */
public final class CloningValueFilter extends FilterBase {

    static {
        ServerLedger.touch();
    }

    /** Sums the bytes it reads, so the JIT cannot drop the copy. */
    private long checksum;

    @Override
    public ReturnCode filterCell(Cell cell) {
        byte[] value = CellUtil.cloneValue(cell);
        if (cell instanceof ByteBufferExtendedCell
                && ((ByteBufferExtendedCell) cell).getValueByteBuffer().isDirect()) {
            ServerLedger.INSTANCE.cloned(value.length);
        }
        checksum += value.length > 0 ? value[0] : 0;
        return ReturnCode.NEXT_ROW;
    }

    @Override
    public byte[] toByteArray() {
        return new byte[0];
    }

    /** How the RegionServer rebuilds the filter from the client's request. */
    public static CloningValueFilter parseFrom(byte[] bytes) {
        return new CloningValueFilter();
    }

    @Override
    public String toString() {
        return "CloningValueFilter(" + checksum + ")";
    }
}
