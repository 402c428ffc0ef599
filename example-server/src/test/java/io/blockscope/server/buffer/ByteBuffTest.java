package io.blockscope.server.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every accessor of every view kind, checked against a plain array holding the same bytes. */
class ByteBuffTest {

    private static final byte[] CONTENT = random(203, 1);
    private static final ByteBuffer REFERENCE = ByteBuffer.wrap(CONTENT);

    static List<TestBuffers.Kind> kinds() {
        return TestBuffers.kinds();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void absoluteReadsMatchTheBytesAtEveryIndex(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        assertEquals(CONTENT.length, b.capacity());
        for (int i = 0; i < CONTENT.length; i++) {
            assertEquals(REFERENCE.get(i), b.get(i), "byte at " + i);
            if (i + 2 <= CONTENT.length) {
                assertEquals(REFERENCE.getShort(i), b.getShort(i), "short at " + i);
            }
            if (i + 4 <= CONTENT.length) {
                assertEquals(REFERENCE.getInt(i), b.getInt(i), "int at " + i);
            }
            if (i + 8 <= CONTENT.length) {
                assertEquals(REFERENCE.getLong(i), b.getLong(i), "long at " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void rangeReadsCopyExactlyTheRange(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        for (int from = 0; from < CONTENT.length; from += 13) {
            for (int length : new int[] {0, 1, 7, 64, CONTENT.length - from}) {
                if (from + length > CONTENT.length) {
                    continue;
                }
                byte[] expected = Arrays.copyOfRange(CONTENT, from, from + length);
                assertArrayEquals(expected, b.toBytes(from, length), "toBytes " + from + "+" + length);

                byte[] dst = new byte[length + 4];
                b.get(from, dst, 2, length);
                assertArrayEquals(expected, Arrays.copyOfRange(dst, 2, 2 + length));

                ByteBuffer target = ByteBuffer.allocateDirect(length + 3).position(3);
                b.get(from, target, length);
                assertEquals(length + 3, target.position(), "destination position advanced by the length");
                byte[] viaBuffer = new byte[length];
                target.get(3, viaBuffer);
                assertArrayEquals(expected, viaBuffer);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void slicesShareBytesAndReadLikeTheRange(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        for (int from = 0; from < CONTENT.length; from += 17) {
            int length = Math.min(61, CONTENT.length - from);
            ByteBuff slice = b.slice(from, length);
            assertEquals(length, slice.capacity());
            assertEquals(b.isDirect(), slice.isDirect());
            assertArrayEquals(Arrays.copyOfRange(CONTENT, from, from + length), slice.toBytes(0, length));
            for (int i = 0; i + 8 <= length; i += 3) {
                assertEquals(REFERENCE.getLong(from + i), slice.getLong(i));
            }
        }
        assertEquals(0, b.slice(CONTENT.length, 0).capacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void rangesOutsideTheViewAreRejected(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        int n = CONTENT.length;
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(n));
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> b.getInt(n - 3));
        assertThrows(IndexOutOfBoundsException.class, () -> b.getLong(n - 7));
        assertThrows(IndexOutOfBoundsException.class, () -> b.toBytes(n - 5, 6));
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(n - 5, 6));
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(-1, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void addressingLocatesEveryByteInItsBuffer(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        for (int i = 0; i < CONTENT.length; i++) {
            assertEquals(CONTENT[i], b.bufferAt(i).get(b.positionOf(i)), "byte " + i + " via bufferAt/positionOf");
        }
        // A contiguous range is readable in one buffer without a copy.
        for (int i = 0; i < CONTENT.length; i += 5) {
            int length = Math.min(9, CONTENT.length - i);
            if (b.isContiguous(i, length)) {
                ByteBuffer buffer = b.bufferAt(i);
                int p = b.positionOf(i);
                for (int k = 0; k < length; k++) {
                    assertEquals(CONTENT[i + k], buffer.get(p + k));
                }
            }
        }
        // An empty range at the very end still has an address (the empty tags of a block's last cell).
        ByteBuffer end = b.bufferAt(CONTENT.length);
        assertEquals(end.capacity(), b.positionOf(CONTENT.length));
        assertTrue(b.isContiguous(CONTENT.length, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void checksumCoversTheRangeAcrossPieces(TestBuffers.Kind kind) {
        ByteBuff b = kind.of(CONTENT);
        CRC32C expected = new CRC32C();
        expected.update(CONTENT, 3, 190);
        CRC32C actual = new CRC32C();
        b.updateChecksum(actual, 3, 190);
        assertEquals(expected.getValue(), actual.getValue());
    }

    @Test
    void writesRoundTripThroughEveryWritableKind() {
        for (TestBuffers.Kind kind : TestBuffers.kinds()) {
            if (kind.name().contains("read-only")) {
                continue;
            }
            for (int at = 0; at + 8 <= CONTENT.length; at += 3) {
                ByteBuff b = kind.of(new byte[CONTENT.length]);
                b.putLong(at, 0x8070605040302010L);
                assertEquals(0x8070605040302010L, b.getLong(at), kind + " long at " + at);
                b.putInt(at, 0xCAFEBABE);
                assertEquals(0xCAFEBABE, b.getInt(at), kind + " int at " + at);
                b.putShort(at + 4, (short) 0xBEEF);
                assertEquals((short) 0xBEEF, b.getShort(at + 4), kind + " short at " + at);
                b.put(at + 7, (byte) 0x81);
                assertEquals((byte) 0x81, b.get(at + 7));
                // Big-endian: the int's first byte is its most significant.
                assertEquals((byte) 0xCA, b.get(at));
            }
            ByteBuff b = kind.of(new byte[CONTENT.length]);
            b.put(0, CONTENT, 0, CONTENT.length);
            assertArrayEquals(CONTENT, b.toBytes(0, CONTENT.length), kind + " bulk array put");

            ByteBuff c = kind.of(new byte[CONTENT.length]);
            c.put(5, TestBuffers.splitEvery(CONTENT, 7), 10, 150);
            assertArrayEquals(Arrays.copyOfRange(CONTENT, 10, 160), c.toBytes(5, 150), kind + " ByteBuff put");

            ByteBuff d = kind.of(new byte[CONTENT.length]);
            ByteBuffer src = ByteBuffer.allocateDirect(CONTENT.length).put(0, CONTENT);
            d.put(1, src, 20, 100);
            assertEquals(0, src.position(), "source position untouched");
            assertArrayEquals(Arrays.copyOfRange(CONTENT, 20, 120), d.toBytes(1, 100), kind + " ByteBuffer put");
        }
    }

    @Test
    void wrappingNeverMovesTheCallersBuffer() {
        ByteBuffer source = ByteBuffer.allocateDirect(32).position(4).limit(20);
        ByteBuff b = ByteBuff.wrap(source);
        assertEquals(16, b.capacity());
        b.putInt(0, 42);
        assertEquals(42, source.getInt(4), "view index 0 is the buffer's position at wrap time");
        assertEquals(4, source.position());
        assertEquals(20, source.limit());
    }

    @Test
    void multiViewsRejectMixedMemoryAndSkipEmptyPieces() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ByteBuff.wrap(ByteBuffer.allocate(4), ByteBuffer.allocateDirect(4)));
        ByteBuff b = ByteBuff.wrap(
                ByteBuffer.allocate(0),
                ByteBuffer.wrap(new byte[] {1, 2}),
                ByteBuffer.allocate(0),
                ByteBuffer.allocate(0),
                ByteBuffer.wrap(new byte[] {3}));
        assertEquals(3, b.capacity());
        assertEquals(2, b.bufferCount());
        assertEquals(2, b.get(1));
        assertEquals(3, b.get(2));
        assertFalse(b.isContiguous(1, 2));
        assertTrue(b.isContiguous(0, 2));
    }

    @Test
    void fourMegabyteBoundaryValuesAndSlices() {
        // A 64 KB block that starts 3 bytes before the end of one bucket: its first long straddles.
        byte[] block = random(64 * 1024, 2);
        ByteBuffer ref = ByteBuffer.wrap(block);
        ByteBuff b = TestBuffers.straddling(block, 3);
        assertEquals(2, b.bufferCount());
        assertTrue(b.isDirect());
        for (int i = 0; i < 8; i++) {
            assertEquals(ref.getLong(i), b.getLong(i), "long at " + i);
            assertEquals(ref.getInt(i), b.getInt(i), "int at " + i);
            assertEquals(ref.getShort(i), b.getShort(i), "short at " + i);
        }
        assertFalse(b.isContiguous(0, 4));
        assertTrue(b.isContiguous(0, 3));
        assertTrue(b.isContiguous(3, block.length - 3));

        ByteBuff across = b.slice(1, 100);
        assertEquals(2, across.bufferCount());
        assertArrayEquals(Arrays.copyOfRange(block, 1, 101), across.toBytes(0, 100));
        ByteBuff inside = b.slice(3, 100);
        assertEquals(1, inside.bufferCount(), "a slice within one bucket is a single view");
        assertArrayEquals(Arrays.copyOfRange(block, 3, 103), inside.toBytes(0, 100));

        b.putLong(0, -2L);
        assertEquals(-2L, b.getLong(0));
        assertEquals((byte) 0xFE, b.get(7));
    }

    static byte[] random(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }
}
