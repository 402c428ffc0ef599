package io.blockscope.hbasers.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.BytesBytesPair;
import org.apache.hadoop.hbase.util.ByteBufferUtils;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * HBase's {@code FuzzyRowFilter} matching rows in place: the stock {@code filterCell} takes
 * {@code getRowArray()} (a new array on an offheap cell) for each fuzzy key it tries, and the
 * {@code filterRowKey(Cell)} it inherits from {@code FilterBase} takes it once more per row. This
 * subclass matches over the cell's row buffer and decides nothing in {@code filterRowKey}, as the stock
 * one does not. Its seek hints are the stock {@code getNextCellHint}'s, which still copy the row once
 * per fuzzy key each time the scan seeks (its helpers are package-private). Matching is the stock
 * filter's where the platform reads unaligned (x86-64, aarch64): fixed bytes equal, over the shorter of
 * row and key. Test code, sent by class name and built on the RegionServer by its own {@link #parseFrom}.
 */
public class InPlaceFuzzyRowFilter extends FuzzyRowFilter {

    /** Per fuzzy key, its bytes with the wildcards zeroed, and its mask: -1 where fixed, 0 where not. */
    private final byte[][] keys;

    private final byte[][] masks;
    /** The key that matched the previous row, tried first (the stock filter's order). */
    private int lastFoundIndex = -1;
    /** The stock filter's own flag is private: set when no key matches, cleared at each row. */
    private boolean filterRow;
    /** Whether the stock filter's masks are ready for its {@link #getNextCellHint}. */
    private boolean stockMasksShifted;

    /** Masks as the stock constructor takes them: 0 fixed, 1 wildcard (or -1 and 2, processed). */
    public InPlaceFuzzyRowFilter(List<Pair<byte[], byte[]>> fuzzyKeysData) {
        super(fuzzyKeysData);
        keys = new byte[fuzzyKeysData.size()][];
        masks = new byte[fuzzyKeysData.size()][];
        for (int k = 0; k < keys.length; k++) {
            byte[] key = fuzzyKeysData.get(k).getFirst().clone();
            byte[] given = fuzzyKeysData.get(k).getSecond();
            byte[] mask = new byte[given.length];
            for (int i = 0; i < mask.length; i++) {
                mask[i] = given[i] == 0 || given[i] == -1 ? (byte) -1 : 0;
                key[i] &= mask[i];
            }
            keys[k] = key;
            masks[k] = mask;
        }
    }

    @Override
    public ReturnCode filterCell(Cell c) {
        int start = Math.max(lastFoundIndex, 0);
        for (int i = start; i < keys.length + start; i++) {
            int index = i % keys.length;
            if (matches(c, keys[index], masks[index])) {
                lastFoundIndex = index;
                return ReturnCode.INCLUDE;
            }
        }
        lastFoundIndex = -1;
        filterRow = true;
        return ReturnCode.SEEK_NEXT_USING_HINT;
    }

    private static boolean matches(Cell c, byte[] key, byte[] mask) {
        int length = Math.min(c.getRowLength(), key.length);
        if (c instanceof ByteBufferExtendedCell) {
            ByteBuffer row = ((ByteBufferExtendedCell) c).getRowByteBuffer();
            int at = ((ByteBufferExtendedCell) c).getRowPosition();
            for (int i = 0; i < length; i++) {
                if ((ByteBufferUtils.toByte(row, at + i) & mask[i]) != key[i]) {
                    return false;
                }
            }
            return true;
        }
        byte[] row = c.getRowArray();
        int at = c.getRowOffset();
        for (int i = 0; i < length; i++) {
            if ((row[at + i] & mask[i]) != key[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stock hint, once the stock {@code filterCell} has prepared its masks: it shifts each key's
     * mask as it tries it, and the hint reads them shifted. Shown a heap row that no key matches, it
     * tries (and prepares) every key, copying nothing.
     */
    @Override
    public Cell getNextCellHint(Cell currentCell) {
        if (!stockMasksShifted) {
            super.filterCell(new KeyValue(matchingNoKey(), HConstants.LATEST_TIMESTAMP));
            stockMasksShifted = true;
        }
        return super.getNextCellHint(currentCell);
    }

    /** At each position a byte that no key fixes there (with fewer than 256 keys, one always exists). */
    private byte[] matchingNoKey() {
        int length = 0;
        for (byte[] key : keys) {
            length = Math.max(length, key.length);
        }
        byte[] row = new byte[length];
        for (int i = 0; i < length; i++) {
            boolean[] fixed = new boolean[256];
            for (int k = 0; k < keys.length; k++) {
                if (i < keys[k].length && masks[k][i] == -1) {
                    fixed[keys[k][i] & 0xff] = true;
                }
            }
            int b = 0;
            while (b < 255 && fixed[b]) {
                b++;
            }
            row[i] = (byte) b;
        }
        return row;
    }

    /** {@code FilterBase}'s answer without its {@code getRowArray()}: the row is decided per cell. */
    @Override
    public boolean filterRowKey(Cell firstRowCell) {
        return filterAllRemaining();
    }

    @Override
    public void reset() {
        filterRow = false;
    }

    @Override
    public boolean filterRow() {
        return filterRow;
    }

    /**
     * The stock serialization (the inherited {@code toByteArray}) read back into this class: HBase calls
     * {@code parseFrom} on the class the request names. Only v2 masks, which every 2.x client writes.
     */
    public static InPlaceFuzzyRowFilter parseFrom(byte[] pbBytes) throws DeserializationException {
        FilterProtos.FuzzyRowFilter proto;
        try {
            proto = FilterProtos.FuzzyRowFilter.parseFrom(pbBytes);
        } catch (InvalidProtocolBufferException e) {
            throw new DeserializationException(e);
        }
        if (!proto.getIsMaskV2()) {
            throw new DeserializationException("v1 fuzzy masks (wildcard 0) are not read here");
        }
        List<Pair<byte[], byte[]>> keys = new ArrayList<>();
        for (BytesBytesPair pair : proto.getFuzzyKeysDataList()) {
            keys.add(new Pair<>(pair.getFirst().toByteArray(), pair.getSecond().toByteArray()));
        }
        return new InPlaceFuzzyRowFilter(keys);
    }
}
