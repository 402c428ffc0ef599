package io.blockscope.server.cell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The buffer accessors point into the block; the array accessors fall back to counted copies. */
class ByteBufferCellTest {

    private static final ArrayCell CELL = ArrayCell.of(
            "row".getBytes(), "fam".getBytes(), "qual".getBytes(), 77, "value".getBytes(), "tg".getBytes());

    @Test
    void bufferAccessorsShareTheBlockBuffer() {
        BufferedKeyValue kv = TestCells.buffered(CELL, true);
        ByteBuffer b = kv.buffer();
        for (ByteBuffer component : new ByteBuffer[] {
            kv.getRowByteBuffer(),
            kv.getFamilyByteBuffer(),
            kv.getQualifierByteBuffer(),
            kv.getValueByteBuffer(),
            kv.getTagsByteBuffer()
        }) {
            assertSame(b, component, "no duplicate or slice per component");
        }
        assertEquals(5 + 12, kv.getRowPosition());
        assertEquals('r', b.get(kv.getRowPosition()));
        assertEquals('f', b.get(kv.getFamilyPosition()));
        assertEquals('q', b.get(kv.getQualifierPosition()));
        assertEquals('v', b.get(kv.getValuePosition()));
        assertEquals('t', b.get(kv.getTagsPosition()));
        assertEquals(0, b.position(), "the shared buffer's position is never moved");
    }

    @Test
    void arrayAccessorsCopyEachComponentFreshly() {
        TestCells.CountingCell.COPIES.set(0);
        TestCells.CountingCell c = new TestCells.CountingCell(TestCells.buffered(CELL, true));
        assertArrayEquals("row".getBytes(), c.getRowArray());
        assertEquals(0, c.getRowOffset());
        assertArrayEquals("fam".getBytes(), c.getFamilyArray());
        assertArrayEquals("qual".getBytes(), c.getQualifierArray());
        assertArrayEquals("value".getBytes(), c.getValueArray());
        assertArrayEquals("tg".getBytes(), c.getTagsArray());
        assertEquals(0, c.getValueOffset());
        assertNotSame(c.getValueArray(), c.getValueArray(), "a fresh copy per call");
        assertEquals(7, TestCells.CountingCell.COPIES.get());
    }
}
