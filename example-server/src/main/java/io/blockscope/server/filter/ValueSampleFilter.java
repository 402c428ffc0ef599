package io.blockscope.server.filter;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;

/**
 * Keeps about {@code percent}% of rows, chosen by the first byte of the value of each row's first
 * cell: the row stays when that byte, read as 0..255, is below {@code percent * 256 / 100}. Loaded
 * values are uniformly random bytes, so the kept share is {@code ceil(percent * 2.56) / 256}
 * (10% keeps 26/256 = 10.2%). A row whose first value is empty is dropped.
 *
 * <p>The byte is read through the buffer accessor, so the filter itself never copies.
 */
public final class ValueSampleFilter implements Filter {

    private final int percent;
    private final int threshold;
    private boolean firstCellOfRow;
    private boolean keepRow;

    public ValueSampleFilter(int percent) {
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("percent must be 1..100, got " + percent);
        }
        this.percent = percent;
        this.threshold = (percent * 256 + 99) / 100;
    }

    /** True when a value whose first byte is {@code firstByte} is kept. */
    public boolean keeps(byte firstByte) {
        return Byte.toUnsignedInt(firstByte) < threshold;
    }

    @Override
    public void startRow() {
        firstCellOfRow = true;
    }

    @Override
    public Decision filterCell(Cell cell) {
        if (firstCellOfRow) {
            firstCellOfRow = false;
            keepRow = cell.getValueLength() > 0 && keeps(firstValueByte(cell));
        }
        return keepRow ? Decision.INCLUDE : Decision.NEXT_ROW;
    }

    private static byte firstValueByte(Cell cell) {
        if (cell instanceof ByteBufferCell bbCell) {
            return bbCell.getValueByteBuffer().get(bbCell.getValuePosition());
        }
        return cell.getValueArray()[cell.getValueOffset()];
    }

    @Override
    public String toString() {
        return percent + "pct";
    }
}
