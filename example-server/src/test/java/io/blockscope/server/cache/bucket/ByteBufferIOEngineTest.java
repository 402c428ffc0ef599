package io.blockscope.server.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import io.blockscope.server.buffer.MultiByteBuff;
import io.blockscope.server.buffer.SingleByteBuff;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteBufferIOEngineTest {

    private static final int MB4 = ByteBufferIOEngine.BUFFER_SIZE;

    private static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void allocatesFourMegabyteBuffersWithAShortLastOne() {
        ByteBufferIOEngine engine = ByteBufferIOEngine.offheap(2L * MB4 + 10);
        assertEquals(3, engine.bufferCount());
        assertEquals(2L * MB4 + 10, engine.capacity());
        assertTrue(engine.isOffHeap());
        assertTrue(engine.supportsSharedViews());
        assertEquals(IOEngineType.OFFHEAP, engine.type());
        ByteBuff tail = engine.view(2L * MB4, 10);
        assertEquals(10, tail.capacity());
    }

    @Test
    void aRangeAcrossABufferBoundaryIsAMultiBuffView() {
        for (ByteBufferIOEngine engine :
                new ByteBufferIOEngine[] {ByteBufferIOEngine.offheap(2L * MB4), ByteBufferIOEngine.heap(2L * MB4)}) {
            byte[] block = random(64 * 1024, 1);
            long offset = MB4 - 1000; // 1000 bytes in buffer 0, the rest in buffer 1
            engine.write(offset, ByteBuff.wrap(block), 0, block.length);

            ByteBuff view = engine.view(offset, block.length);
            assertInstanceOf(MultiByteBuff.class, view);
            assertEquals(2, view.bufferCount());
            assertEquals(engine.isOffHeap(), view.isDirect());
            assertArrayEquals(block, view.toBytes(0, block.length));
            assertEquals(ByteBuff.wrap(block).getLong(996), view.getLong(996), "a long across the boundary");

            byte[] copy = new byte[block.length];
            engine.read(offset, copy, 0, copy.length);
            assertArrayEquals(block, copy);

            assertInstanceOf(SingleByteBuff.class, engine.view(offset + 1000, 100), "inside one buffer");
        }
    }

    @Test
    void viewsShareTheEnginesMemory() {
        ByteBufferIOEngine engine = ByteBufferIOEngine.heap(MB4);
        ByteBuff view = engine.view(4096, 16);
        engine.write(4096, ByteBuff.wrap(random(16, 2)), 0, 16);
        assertArrayEquals(random(16, 2), view.toBytes(0, 16), "a view sees later writes: no copy");
        assertFalse(view.isDirect());
    }

    @Test
    void writesAMultiBuffSource() {
        ByteBufferIOEngine engine = ByteBufferIOEngine.offheap(2L * MB4);
        byte[] block = random(5000, 3);
        engine.write(MB4 - 2000, ByteBuff.wrap(block), 0, block.length);
        ByteBuff straddling = engine.view(MB4 - 2000, block.length);
        engine.write(100, straddling, 10, 4000); // copy from a multi-buffer view
        assertArrayEquals(
                java.util.Arrays.copyOfRange(block, 10, 4010),
                engine.view(100, 4000).toBytes(0, 4000));
    }

    @Test
    void rangesOutsideTheEngineFail() {
        ByteBufferIOEngine engine = ByteBufferIOEngine.offheap(MB4);
        assertThrows(IndexOutOfBoundsException.class, () -> engine.view(MB4 - 10, 11));
        assertThrows(IndexOutOfBoundsException.class, () -> engine.read(-1, new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class, () -> ByteBufferIOEngine.heap(0));
    }
}
