package io.blockscope.server.filter;

import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Keeps only the cells whose qualifier is one of a given set (a column projection). */
public final class QualifierFilter implements Filter {

    private final byte[][] qualifiers;

    public QualifierFilter(List<byte[]> qualifiers) {
        if (qualifiers.isEmpty()) {
            throw new IllegalArgumentException("a qualifier filter needs at least one qualifier");
        }
        this.qualifiers = qualifiers.toArray(new byte[0][]);
    }

    @Override
    public Decision filterCell(Cell cell) {
        for (byte[] wanted : qualifiers) {
            if (qualifierEquals(cell, wanted)) {
                return Decision.INCLUDE;
            }
        }
        return Decision.SKIP;
    }

    /** Compares in place: qualifiers are a few bytes, so a plain loop beats setting up a slice. */
    private static boolean qualifierEquals(Cell cell, byte[] wanted) {
        int length = cell.getQualifierLength();
        if (length != wanted.length) {
            return false;
        }
        if (cell instanceof ByteBufferCell bbCell) {
            ByteBuffer buffer = bbCell.getQualifierByteBuffer();
            int position = bbCell.getQualifierPosition();
            for (int i = 0; i < length; i++) {
                if (buffer.get(position + i) != wanted[i]) {
                    return false;
                }
            }
            return true;
        }
        byte[] array = cell.getQualifierArray();
        int offset = cell.getQualifierOffset();
        for (int i = 0; i < length; i++) {
            if (array[offset + i] != wanted[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        for (byte[] q : qualifiers) {
            names.add(new String(q, StandardCharsets.UTF_8));
        }
        return "qualifier:" + String.join(",", names);
    }
}
