package io.blockscope.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.BufferedKeyValue;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.KeyValueCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellBlockTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void arrayAndOffheapCellsEncodeToTheSameBytesAndDecodeBack() {
        ArrayCell a = ArrayCell.of(b("row-1"), b("info"), b("q"), 42, b("value one"), b("tag"));
        ArrayCell c = ArrayCell.of(b("row-2"), b("info"), b(""), -1, new byte[0]);
        byte[] serialized = KeyValueCodec.toBytes(a);
        ByteBuffer direct = ByteBuffer.allocateDirect(serialized.length + 3);
        direct.put(3, serialized);
        Cell offheap = new BufferedKeyValue(direct, 3);

        ByteBuffer fromArray = encode(a, c);
        ByteBuffer fromOffheap = encode(offheap, c);
        ByteBuffer fromComponents = encode(new PlainCell(a), new PlainCell(c));
        assertEquals(fromArray, fromOffheap);
        assertEquals(fromArray, fromComponents, "the component-by-component path writes the same layout");
        assertEquals(
                CellBlock.HEADER_LENGTH + CellBlock.encodedLength(a) + CellBlock.encodedLength(c),
                fromArray.remaining());

        List<ClientCell> cells = CellBlock.decode(fromArray);
        assertEquals(
                List.of(
                        new ClientCell(b("row-1"), b("info"), b("q"), 42, b("value one")),
                        new ClientCell(b("row-2"), b("info"), b(""), -1, new byte[0])),
                cells);
    }

    private static ByteBuffer encode(Cell... cells) {
        int length = CellBlock.HEADER_LENGTH;
        for (Cell cell : cells) {
            length += CellBlock.encodedLength(cell);
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        CellBlock.writeHeader(out, cells.length);
        for (Cell cell : cells) {
            CellBlock.encode(cell, out);
        }
        return out.flip();
    }

    /** A cell of no known kind, so encoding goes component by component. */
    private record PlainCell(Cell inner) implements Cell {
        public byte[] getRowArray() {
            return inner.getRowArray();
        }

        public int getRowOffset() {
            return inner.getRowOffset();
        }

        public short getRowLength() {
            return inner.getRowLength();
        }

        public byte[] getFamilyArray() {
            return inner.getFamilyArray();
        }

        public int getFamilyOffset() {
            return inner.getFamilyOffset();
        }

        public byte getFamilyLength() {
            return inner.getFamilyLength();
        }

        public byte[] getQualifierArray() {
            return inner.getQualifierArray();
        }

        public int getQualifierOffset() {
            return inner.getQualifierOffset();
        }

        public int getQualifierLength() {
            return inner.getQualifierLength();
        }

        public long getTimestamp() {
            return inner.getTimestamp();
        }

        public byte[] getValueArray() {
            return inner.getValueArray();
        }

        public int getValueOffset() {
            return inner.getValueOffset();
        }

        public int getValueLength() {
            return inner.getValueLength();
        }

        public byte[] getTagsArray() {
            return inner.getTagsArray();
        }

        public int getTagsOffset() {
            return inner.getTagsOffset();
        }

        public int getTagsLength() {
            return inner.getTagsLength();
        }
    }

    @Test
    void damagedBlocksAreRejected() {
        ByteBuffer good = encode(ArrayCell.of(b("r"), b("f"), b("q"), 1, b("v")));
        assertTrue(message(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 0, 0, 0, 0})).contains("magic"));
        ByteBuffer truncated = good.duplicate().limit(good.limit() - 1);
        assertTrue(message(truncated).contains("truncated in cell 0"));
        ByteBuffer extra = ByteBuffer.allocate(good.remaining() + 2).put(good.duplicate());
        extra.position(extra.capacity()).flip(); // two stray bytes after the cell
        assertTrue(message(extra).contains("after the last cell"));
        ByteBuffer badLengths =
                ByteBuffer.allocate(good.remaining()).put(good.duplicate()).flip();
        badLengths.putInt(CellBlock.HEADER_LENGTH, 3); // key length smaller than row + family + fixed parts
        assertTrue(message(badLengths).contains("inconsistent lengths"));
    }

    private static String message(ByteBuffer block) {
        return assertThrows(IllegalArgumentException.class, () -> CellBlock.decode(block))
                .getMessage();
    }

    @Test
    void continuationTokensRoundTripAndForgeriesAreRejected() {
        ContinuationToken token = new ContinuationToken(b("00000000000000000000000123"), 77);
        ContinuationToken back = ContinuationToken.decode(token.encode());
        assertEquals(77, back.remainingRows());
        assertEquals("00000000000000000000000123", new String(back.resumeRow(), StandardCharsets.UTF_8));
        assertEquals(
                -1,
                ContinuationToken.decode(new ContinuationToken(b("x"), -1).encode())
                        .remainingRows());
        for (String forged : List.of(
                "", "!!!", "AAAA", new ContinuationToken(b("x"), 5).encode().substring(2))) {
            RpcException e = assertThrows(RpcException.class, () -> ContinuationToken.decode(forged));
            assertEquals(400, e.status());
        }
    }

    @Test
    void keysDecodeInEachEncodingAndBadOnesAreExplained() {
        assertEquals("abc", new String(KeyEncoding.UTF8.decode("abc", "row"), StandardCharsets.UTF_8));
        assertEquals("abc", new String(KeyEncoding.HEX.decode("616263", "row"), StandardCharsets.UTF_8));
        assertEquals("abc", new String(KeyEncoding.BASE64.decode("YWJj", "row"), StandardCharsets.UTF_8));
        assertEquals("616263", KeyEncoding.HEX.encode(b("abc")));
        assertTrue(assertThrows(RpcException.class, () -> KeyEncoding.HEX.decode("6", "row 3"))
                .getMessage()
                .startsWith("row 3 '6' is not valid hex"));
        assertTrue(assertThrows(RpcException.class, () -> KeyEncoding.parse("rot13"))
                .getMessage()
                .contains("utf8, hex, base64"));
        String tooLong = "a".repeat(Short.MAX_VALUE + 1);
        assertTrue(assertThrows(RpcException.class, () -> KeyEncoding.UTF8.decode(tooLong, "start"))
                .getMessage()
                .contains("at most 32767 bytes"));
    }
}
