package io.blockscope.server.cell;

import static io.blockscope.server.cell.TestCells.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CellComparatorTest {

    /** Cells in their expected order: each differs from the next in one component. */
    private static final List<ArrayCell> SORTED = List.of(
            cell("", "f", "q", 1, "v"),
            cell("a", "f", "q", 1, "v"),
            cell("a\u0000", "f", "q", 1, "v"),
            cell("ab", "", "", 5, "v"),
            cell("ab", "", "q", 5, "v"),
            cell("ab", "f", "", 9, "v"),
            cell("ab", "f", "", 3, "v"),
            cell("ab", "f", "q", Long.MAX_VALUE, "v"),
            cell("ab", "f", "q", 7, "v"),
            cell("ab", "f", "q", 0, "v"),
            cell("ab", "f", "q", -1, "v"),
            cell("ab", "f", "q", Long.MIN_VALUE, "v"),
            cell("ab", "f", "q\u007F", 1, "v"),
            cell("ab", "f", "q\u0080", 1, "v"),
            cell("ab", "f\u00FF", "a", 1, "v"),
            cell("ab", "g", "a", 1, "v"),
            cell("b", "a", "a", 1, "v"),
            ArrayCell.of(new byte[] {0x7F}, "f".getBytes(), "q".getBytes(), 1, new byte[0]),
            ArrayCell.of(new byte[] {(byte) 0x80}, "f".getBytes(), "q".getBytes(), 1, new byte[0]),
            ArrayCell.of(new byte[] {(byte) 0xFF, 0}, "f".getBytes(), "q".getBytes(), 1, new byte[0]));

    static List<TestCells.Kind> kinds() {
        return TestCells.kinds();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyPairOfKindsComparesLikeTheExpectedOrder(TestCells.Kind left) {
        for (TestCells.Kind right : TestCells.kinds()) {
            for (int i = 0; i < SORTED.size(); i++) {
                for (int j = 0; j < SORTED.size(); j++) {
                    Cell a = left.of(SORTED.get(i));
                    Cell b = right.of(SORTED.get(j));
                    String what = left + " " + a + " vs " + right + " " + b;
                    assertEquals(
                            Integer.signum(Integer.compare(i, j)),
                            Integer.signum(CellComparator.compareKeys(a, b)),
                            what);
                    assertEquals(
                            Integer.signum(Integer.compare(i, j)),
                            Integer.signum(CellComparator.INSTANCE.compare(a, b)),
                            what);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void componentComparesAcrossKinds(TestCells.Kind left) {
        ArrayCell x = cell("row-1", "fam", "qual-a", 10, "value");
        ArrayCell y = cell("row-2", "fan", "qual-b", 20, "value");
        for (TestCells.Kind right : TestCells.kinds()) {
            Cell a = left.of(x);
            Cell b = right.of(y);
            assertTrue(CellComparator.compareRows(a, b) < 0, left + " vs " + right);
            assertTrue(CellComparator.compareRows(b, a) > 0);
            assertEquals(0, CellComparator.compareRows(a, right.of(x)));
            assertTrue(CellComparator.compareFamilies(a, b) < 0);
            assertTrue(CellComparator.compareQualifiers(a, b) < 0);
            assertTrue(CellComparator.compareTimestamps(a, b) > 0, "the newer cell (ts 20) sorts first");
            assertTrue(CellComparator.matchingRows(a, right.of(x)));
            assertFalse(CellComparator.matchingRows(a, b));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void rowComparesAgainstAPlainByteArray(TestCells.Kind kind) {
        Cell c = kind.of(cell("row-5", "f", "q", 1, "v"));
        assertEquals(0, CellComparator.compareRow(c, "row-5".getBytes()));
        assertTrue(CellComparator.compareRow(c, "row-6".getBytes()) < 0);
        assertTrue(CellComparator.compareRow(c, "row-".getBytes()) > 0, "a prefix sorts first");
        assertTrue(CellComparator.compareRow(c, "row-50".getBytes()) < 0);
        assertTrue(CellComparator.compareRow(c, new byte[] {'r', 'o', 'w', '-', (byte) 0x80}) < 0, "unsigned bytes");
        assertEquals(0, CellComparator.compareRow(c, "xxrow-5yy".getBytes(), 2, 5));
        assertTrue(CellComparator.matchingRow(c, "row-5".getBytes()));
        assertFalse(CellComparator.matchingRow(c, "row-55".getBytes()));
    }

    @Test
    void sortingAMixOfKindsGivesTheExpectedOrder() {
        Random random = new Random(7);
        List<TestCells.Kind> kinds = TestCells.kinds();
        List<Cell> shuffled = new ArrayList<>();
        for (ArrayCell c : SORTED) {
            shuffled.add(kinds.get(random.nextInt(kinds.size())).of(c));
        }
        Collections.shuffle(shuffled, random);
        shuffled.sort(CellComparator.INSTANCE);
        for (int i = 0; i < SORTED.size(); i++) {
            assertTrue(Cells.equals(SORTED.get(i), shuffled.get(i)), "position " + i + ": " + shuffled.get(i));
        }
    }

    @Test
    void comparingBufferBackedCellsNeverCopiesToTheHeap() {
        TestCells.CountingCell.COPIES.set(0);
        ArrayCell x = cell("row-1", "fam", "qual-a", 10, "value");
        ArrayCell y = cell("row-1", "fam", "qual-a", 10, "value");
        for (TestCells.Kind other : TestCells.kinds()) {
            Cell a = new TestCells.CountingCell(TestCells.buffered(x, true));
            Cell b = other.of(y);
            CellComparator.compareKeys(a, b);
            CellComparator.compareKeys(b, a);
            CellComparator.compareRow(a, "row-1".getBytes());
            Cells.equals(a, b);
            Cells.toString(a);
        }
        assertEquals(0, TestCells.CountingCell.COPIES.get(), "copy-to-heap fallbacks taken");
    }
}
