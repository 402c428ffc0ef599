package io.blockscope.server.cell;

import static io.blockscope.server.cell.TestCells.cell;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.TestBuffers;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KeyValueCodecTest {

    private static final ArrayCell FULL = ArrayCell.of(
            "row-42".getBytes(),
            "family".getBytes(),
            "qualifier".getBytes(),
            0x0102030405060708L,
            "the value".getBytes(),
            new byte[] {9, 8, 7});

    static List<TestCells.Kind> kinds() {
        return TestCells.kinds();
    }

    @Test
    void layoutMatchesTheDocumentedFormat() {
        byte[] b = KeyValueCodec.toBytes(FULL);
        ByteBuffer in = ByteBuffer.wrap(b);
        int keyLength = 2 + 6 + 1 + 6 + 9 + 8;
        assertEquals(keyLength, in.getInt(0), "key length");
        assertEquals(9, in.getInt(4), "value length");
        assertEquals(3, in.getShort(8), "tags length");
        assertEquals(6, in.getShort(10), "row length");
        assertEquals("row-42", new String(b, 12, 6));
        assertEquals(6, b[18], "family length");
        assertEquals("family", new String(b, 19, 6));
        assertEquals("qualifier", new String(b, 25, 9));
        assertEquals(0x0102030405060708L, in.getLong(34), "timestamp");
        assertEquals("the value", new String(b, 42, 9));
        assertArrayEquals(new byte[] {9, 8, 7}, Arrays.copyOfRange(b, 51, 54));
        assertEquals(54, b.length);
        assertEquals(54, KeyValueFormat.serializedLength(6, 6, 9, 9, 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyKindExposesTheSameComponents(TestCells.Kind kind) {
        Cell c = kind.of(FULL);
        assertEquals(6, c.getRowLength());
        assertEquals(6, c.getFamilyLength());
        assertEquals(9, c.getQualifierLength());
        assertEquals(9, c.getValueLength());
        assertEquals(3, c.getTagsLength());
        assertEquals(0x0102030405060708L, c.getTimestamp());
        assertTrue(Cells.equals(FULL, c));
        assertEquals(54, KeyValueCodec.serializedLength(c));
        assertArrayEquals(KeyValueCodec.toBytes(FULL), KeyValueCodec.toBytes(c), "serializes identically");
        assertEquals(KeyValueCodec.checksum(FULL), KeyValueCodec.checksum(c), "same checksum whatever the kind");
        assertEquals("row-42/family:qualifier/" + 0x0102030405060708L + "/vlen=9", Cells.toString(c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void writesIntoEveryKindOfView(TestCells.Kind kind) {
        Cell c = kind.of(FULL);
        byte[] expected = KeyValueCodec.toBytes(FULL);
        for (TestBuffers.Kind view : TestBuffers.kinds()) {
            if (view.name().contains("read-only")) {
                continue;
            }
            ByteBuff dst = view.of(new byte[expected.length + 6]);
            assertEquals(expected.length, KeyValueCodec.write(c, dst, 3));
            assertArrayEquals(expected, dst.toBytes(3, expected.length), view.name());
            assertTrue(Cells.equals(FULL, KeyValueCodec.decode(dst, 3)), view.name());
        }
        ByteBuffer nio = ByteBuffer.allocateDirect(100).position(10);
        assertEquals(expected.length, KeyValueCodec.write(c, nio));
        assertEquals(10 + expected.length, nio.position());
        assertTrue(Cells.equals(FULL, new BufferedKeyValue(nio, 10)));
        assertThrows(IndexOutOfBoundsException.class, () -> KeyValueCodec.write(c, new byte[expected.length], 1));
    }

    @Test
    void decodePicksTheCellKindFromTheMemory() {
        byte[] bytes = KeyValueCodec.toBytes(FULL);
        Cell heap = KeyValueCodec.decode(TestBuffers.heapWithOffset(bytes), 0);
        ArrayCell array = assertInstanceOf(ArrayCell.class, heap, "heap block: zero-copy ArrayCell");
        assertEquals(7, array.offset(), "points into the block's own array");

        Cell direct = KeyValueCodec.decode(TestBuffers.direct(bytes), 0);
        assertInstanceOf(BufferedKeyValue.class, direct);

        Cell sharedHeap = KeyValueCodec.decodeBuffered(ByteBuff.wrap(bytes), 0);
        BufferedKeyValue kv = assertInstanceOf(BufferedKeyValue.class, sharedHeap);
        assertSame(bytes, kv.buffer().array(), "no copy");

        Cell straddling = KeyValueCodec.decodeBuffered(TestBuffers.straddling(bytes, 20), 0);
        assertInstanceOf(ArrayCell.class, straddling, "a cell across two buffers is copied");
        Cell inSecondBucket =
                KeyValueCodec.decodeBuffered(TestBuffers.straddling(concat(bytes, bytes), 3), bytes.length);
        assertInstanceOf(BufferedKeyValue.class, inSecondBucket, "a cell inside one bucket is not copied");
        for (Cell c : List.of(heap, direct, sharedHeap, straddling, inSecondBucket)) {
            assertTrue(Cells.equals(FULL, c), c.toString());
        }
    }

    @Test
    void decodesABlockOfRandomCellsAcrossABucketBoundary() {
        Random random = new Random(3);
        List<ArrayCell> cells = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < 300; i++) {
            byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            ArrayCell c = ArrayCell.of(
                    ("row-" + i).getBytes(),
                    "f".getBytes(),
                    ("q" + random.nextInt(9)).getBytes(),
                    random.nextLong(),
                    value);
            cells.add(c);
            total += c.serializedLength();
        }
        byte[] block = new byte[total];
        int at = 0;
        for (ArrayCell c : cells) {
            at += KeyValueCodec.write(c, block, at);
        }
        ByteBuff view = TestBuffers.straddling(block, total / 2);
        at = 0;
        int copies = 0;
        for (ArrayCell expected : cells) {
            Cell c = KeyValueCodec.decodeBuffered(view, at);
            copies += c instanceof ArrayCell ? 1 : 0;
            assertTrue(Cells.equals(expected, c), "cell at " + at);
            assertEquals(KeyValueCodec.checksum(expected), KeyValueCodec.checksum(c));
            at += KeyValueCodec.cellLength(view, at);
        }
        assertEquals(total, at);
        assertTrue(copies <= 1, "only the cell across the boundary is copied, got " + copies);
    }

    @Test
    void checksumChangesWithAnyByte() {
        int base = KeyValueCodec.checksum(cell("r", "f", "q", 1, "value"));
        assertNotEquals(base, KeyValueCodec.checksum(cell("r", "f", "q", 1, "valuf")));
        assertNotEquals(base, KeyValueCodec.checksum(cell("r", "f", "q", 2, "value")));
        assertNotEquals(base, KeyValueCodec.checksum(cell("s", "f", "q", 1, "value")));
    }

    @Test
    void emptyComponentsAndLimits() {
        ArrayCell empty = ArrayCell.of(new byte[0], new byte[0], new byte[0], 0, new byte[0]);
        assertEquals(KeyValueFormat.HEADER_SIZE + KeyValueFormat.KEY_OVERHEAD, empty.serializedLength());
        assertTrue(Cells.equals(empty, TestCells.buffered(empty, true)));

        byte[] longRow = new byte[KeyValueFormat.MAX_ROW_LENGTH];
        assertEquals(
                KeyValueFormat.MAX_ROW_LENGTH,
                ArrayCell.of(longRow, new byte[1], new byte[1], 1, new byte[1]).getRowLength());
        byte[] maxTags = new byte[KeyValueFormat.MAX_TAGS_LENGTH];
        assertEquals(
                KeyValueFormat.MAX_TAGS_LENGTH,
                ArrayCell.of(new byte[1], new byte[1], new byte[1], 1, new byte[1], maxTags)
                        .getTagsLength());

        IllegalArgumentException tooLong = assertThrows(
                IllegalArgumentException.class,
                () -> ArrayCell.of(
                        new byte[KeyValueFormat.MAX_ROW_LENGTH + 1], new byte[1], new byte[1], 1, new byte[1]));
        assertTrue(tooLong.getMessage().contains("row length 32768"), tooLong.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> ArrayCell.of(new byte[1], new byte[128], new byte[1], 1, new byte[1]));
        assertThrows(
                IllegalArgumentException.class,
                () -> ArrayCell.of(new byte[1], new byte[1], new byte[1], 1, new byte[1], new byte[65536]));
    }

    @Test
    void malformedHeadersAreRejectedWithTheReason() {
        byte[] good = KeyValueCodec.toBytes(FULL);

        byte[] shortKey = good.clone();
        ByteBuffer.wrap(shortKey).putInt(0, 5);
        assertMalformed(shortKey, "key length 5");

        byte[] hugeValue = good.clone();
        ByteBuffer.wrap(hugeValue).putInt(4, 1 << 20);
        assertMalformed(hugeValue, "runs past");

        byte[] negativeValue = good.clone();
        ByteBuffer.wrap(negativeValue).putInt(4, -2);
        assertMalformed(negativeValue, "negative value length");

        byte[] longRow = good.clone();
        ByteBuffer.wrap(longRow).putShort(10, (short) 400);
        assertMalformed(longRow, "row length 400");

        byte[] badFamily = good.clone();
        badFamily[18] = 100;
        assertMalformed(badFamily, "family length 100");

        assertMalformed(Arrays.copyOf(good, 11), "no room for a cell header");
        assertMalformed(Arrays.copyOf(good, good.length - 1), "runs past");
    }

    private static void assertMalformed(byte[] bytes, String reason) {
        MalformedCellException a = assertThrows(MalformedCellException.class, () -> new ArrayCell(bytes, 0));
        assertTrue(a.getMessage().contains(reason), a.getMessage());
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(0, bytes);
        MalformedCellException b = assertThrows(MalformedCellException.class, () -> new BufferedKeyValue(direct, 0));
        assertTrue(b.getMessage().contains(reason), b.getMessage());
        MalformedCellException c =
                assertThrows(MalformedCellException.class, () -> KeyValueCodec.decode(ByteBuff.wrap(direct), 0));
        assertTrue(c.getMessage().contains(reason), c.getMessage());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
