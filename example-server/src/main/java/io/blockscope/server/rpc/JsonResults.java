package io.blockscope.server.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.blockscope.server.cell.ByteBufferCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.region.ReadResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The JSON form of a result, for people and curl:
 * <pre>
 * {"table":"t","rowCount":1,"cellCount":2,"rowsScanned":1,"continuation":null,
 *  "rows":[{"row":"...","cells":[{"family":"info","qualifier":"0","timestamp":1,"value":"&lt;base64&gt;"}]}]}
 * </pre>
 * Row keys use the request's key encoding; family and qualifier are UTF-8; values are base64.
 * Components are copied out of the cache's buffers explicitly into one scratch array, never through
 * {@code getXxxArray()}, so the JSON path does not show up as copy-to-heap regressions.
 */
final class JsonResults {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonResults() {}

    static byte[] write(String table, ReadResult result, KeyEncoding keys, String continuation) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + result.cellCount() * 64);
        byte[] scratch = new byte[256];
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("table", table);
            g.writeNumberField("rowCount", result.rowCount());
            g.writeNumberField("cellCount", result.cellCount());
            g.writeNumberField("rowsScanned", result.rowsScanned());
            g.writeStringField("continuation", continuation);
            g.writeArrayFieldStart("rows");
            for (int r = 0; r < result.rowCount(); r++) {
                int first = result.rowStart(r);
                int end = result.rowStart(r + 1);
                g.writeStartObject();
                g.writeStringField("row", keys.encode(row(result.cell(first))));
                g.writeArrayFieldStart("cells");
                for (int c = first; c < end; c++) {
                    scratch = writeCell(g, result.cell(c), scratch);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] writeCell(JsonGenerator g, Cell cell, byte[] scratch) throws IOException {
        g.writeStartObject();
        scratch = family(cell, scratch);
        g.writeFieldName("family");
        g.writeUTF8String(scratch, 0, cell.getFamilyLength());
        scratch = qualifier(cell, scratch);
        g.writeFieldName("qualifier");
        g.writeUTF8String(scratch, 0, cell.getQualifierLength());
        g.writeNumberField("timestamp", cell.getTimestamp());
        scratch = value(cell, scratch);
        g.writeFieldName("value");
        g.writeBinary(scratch, 0, cell.getValueLength());
        g.writeEndObject();
        return scratch;
    }

    private static byte[] row(Cell cell) {
        byte[] row = new byte[cell.getRowLength()];
        if (cell instanceof ByteBufferCell bb) {
            bb.getRowByteBuffer().get(bb.getRowPosition(), row, 0, row.length);
        } else {
            System.arraycopy(cell.getRowArray(), cell.getRowOffset(), row, 0, row.length);
        }
        return row;
    }

    private static byte[] family(Cell cell, byte[] scratch) {
        if (cell instanceof ByteBufferCell bb) {
            return copy(bb.getFamilyByteBuffer(), bb.getFamilyPosition(), cell.getFamilyLength(), scratch);
        }
        return copy(cell.getFamilyArray(), cell.getFamilyOffset(), cell.getFamilyLength(), scratch);
    }

    private static byte[] qualifier(Cell cell, byte[] scratch) {
        if (cell instanceof ByteBufferCell bb) {
            return copy(bb.getQualifierByteBuffer(), bb.getQualifierPosition(), cell.getQualifierLength(), scratch);
        }
        return copy(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength(), scratch);
    }

    private static byte[] value(Cell cell, byte[] scratch) {
        if (cell instanceof ByteBufferCell bb) {
            return copy(bb.getValueByteBuffer(), bb.getValuePosition(), cell.getValueLength(), scratch);
        }
        return copy(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength(), scratch);
    }

    private static byte[] copy(ByteBuffer src, int position, int length, byte[] scratch) {
        byte[] dst = scratch.length >= length ? scratch : new byte[Math.max(length, scratch.length * 2)];
        src.get(position, dst, 0, length);
        return dst;
    }

    private static byte[] copy(byte[] src, int offset, int length, byte[] scratch) {
        byte[] dst = scratch.length >= length ? scratch : new byte[Math.max(length, scratch.length * 2)];
        System.arraycopy(src, offset, dst, 0, length);
        return dst;
    }
}
