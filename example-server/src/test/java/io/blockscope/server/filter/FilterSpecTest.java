package io.blockscope.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
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

class FilterSpecTest {

    private static final ClassLoader LOADER = FilterSpecTest.class.getClassLoader();

    private static Cell cell(String qualifier, byte firstValueByte, boolean offheap) {
        ArrayCell array = ArrayCell.of(
                "r".getBytes(StandardCharsets.UTF_8),
                "f".getBytes(StandardCharsets.UTF_8),
                qualifier.getBytes(StandardCharsets.UTF_8),
                1,
                new byte[] {firstValueByte, 9});
        if (!offheap) {
            return array;
        }
        byte[] bytes = KeyValueCodec.toBytes(array);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 7);
        direct.put(7, bytes);
        return new BufferedKeyValue(direct, 7);
    }

    @Test
    void everyFormParsesToItsFilter() {
        assertTrue(FilterSpec.parse(null, LOADER).isNone());
        assertNull(FilterSpec.parse("none", LOADER).newFilter());
        assertInstanceOf(FilterAll.class, FilterSpec.parse("all", LOADER).newFilter());
        assertInstanceOf(
                ValueSampleFilter.class, FilterSpec.parse("10pct", LOADER).newFilter());
        assertInstanceOf(
                QualifierFilter.class, FilterSpec.parse("qualifier:a,b", LOADER).newFilter());
        FilterSpec custom = FilterSpec.parse("class:" + EvenRowsFilter.class.getName(), LOADER);
        assertNotSame(custom.newFilter(), custom.newFilter(), "each scan gets its own instance");
    }

    @Test
    void badSpecsAreExplained() {
        assertTrue(message("bogus").contains("accepted: none, all, <N>pct"));
        assertTrue(message("0pct").contains("1..100"));
        assertTrue(message("xpct").contains("expected <N>pct"));
        assertTrue(message("qualifier:a,,b").contains("non-empty"));
        assertTrue(message("class:").contains("name a class"));
        assertTrue(message("class:no.Such").contains("not on the server's class path"));
        assertTrue(message("class:java.lang.String").contains("does not implement"));
        assertTrue(message("class:" + Abstract.class.getName()).contains("public, concrete"));
        assertTrue(message("class:" + NoDefaultConstructor.class.getName()).contains("no-argument constructor"));
        assertTrue(message("class:" + Throwing.class.getName()).contains("failed in its constructor"));
    }

    private static String message(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> FilterSpec.parse(spec, LOADER))
                .getMessage();
    }

    @Test
    void theValueSampleKeepsAboutTheAskedShareByTheFirstValueByte() {
        ValueSampleFilter tenth = new ValueSampleFilter(10);
        int kept = 0;
        for (int b = 0; b < 256; b++) {
            if (tenth.keeps((byte) b)) {
                kept++;
            }
        }
        assertEquals(26, kept);
        for (boolean offheap : new boolean[] {false, true}) {
            tenth.startRow();
            assertEquals(Filter.Decision.INCLUDE, tenth.filterCell(cell("q", (byte) 25, offheap)));
            assertEquals(
                    Filter.Decision.INCLUDE,
                    tenth.filterCell(cell("q2", (byte) 200, offheap)),
                    "the row's first cell decides");
            tenth.startRow();
            assertEquals(Filter.Decision.NEXT_ROW, tenth.filterCell(cell("q", (byte) 26, offheap)));
        }
    }

    @Test
    void theQualifierFilterMatchesWholeQualifiersOnBothCellKinds() {
        Filter f = new QualifierFilter(
                List.of("ab".getBytes(StandardCharsets.UTF_8), "c".getBytes(StandardCharsets.UTF_8)));
        for (boolean offheap : new boolean[] {false, true}) {
            assertEquals(Filter.Decision.INCLUDE, f.filterCell(cell("ab", (byte) 0, offheap)));
            assertEquals(Filter.Decision.INCLUDE, f.filterCell(cell("c", (byte) 0, offheap)));
            assertEquals(Filter.Decision.SKIP, f.filterCell(cell("a", (byte) 0, offheap)));
            assertEquals(Filter.Decision.SKIP, f.filterCell(cell("abc", (byte) 0, offheap)));
        }
        assertEquals(Filter.Decision.SKIP, new FilterAll().filterCell(cell("x", (byte) 0, true)));
    }

    public abstract static class Abstract implements Filter {}

    public static final class NoDefaultConstructor implements Filter {
        public NoDefaultConstructor(int ignored) {}

        @Override
        public Decision filterCell(Cell cell) {
            return Decision.INCLUDE;
        }
    }

    public static final class Throwing implements Filter {
        public Throwing() {
            throw new IllegalStateException("boom");
        }

        @Override
        public Decision filterCell(Cell cell) {
            return Decision.INCLUDE;
        }
    }
}
