package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiteTableTest {

    private static Map<String, long[]> rows(SiteTable table) {
        Map<String, long[]> out = new HashMap<>();
        for (SiteTable.Row row : table.snapshot()) {
            out.put(row.site(), row.values());
        }
        return out;
    }

    @Test
    void keepsAtMostCapacitySitesAndSendsTheRestToOther() {
        SiteTable table = new SiteTable(3, 2);
        for (int i = 0; i < 10; i++) {
            table.add("site" + i, 1, 10);
        }
        Map<String, long[]> rows = rows(table);
        assertEquals(4, rows.size(), rows.keySet().toString());
        assertArrayEquals(new long[] {7, 70}, rows.get(SiteTable.OTHER));
        assertEquals(10, rows.values().stream().mapToLong(v -> v[0]).sum());
    }

    @Test
    void aHotLateSiteTakesTheLabelOfTheColdestAndEverySeriesOnlyGrows() {
        SiteTable table = new SiteTable(2, 1);
        table.add("cold", 1);
        table.add("warm", 1);
        table.add("warm", 1);
        Map<String, Long> last = new HashMap<>();
        for (int i = 0; i < 5; i++) {
            table.add("hot", 1);
            for (SiteTable.Row row : table.snapshot()) {
                Long before = last.put(row.site(), row.values()[0]);
                assertTrue(before == null || row.values()[0] >= before, row.site() + " went down");
            }
        }
        Map<String, long[]> rows = rows(table);
        assertTrue(rows.containsKey("hot"), rows.keySet().toString());
        assertTrue(rows.containsKey("warm"));
        assertTrue(!rows.containsKey("cold"));
        // nothing is lost: the retired site and the candidate's early counts are in other
        assertEquals(8, rows.values().stream().mapToLong(v -> v[0]).sum());
    }

    @Test
    void boundedUnderManyDistinctSites() {
        SiteTable table = new SiteTable(20, 1);
        for (int i = 0; i < 100_000; i++) {
            table.add("site" + (i % 5000), 1);
        }
        List<SiteTable.Row> rows = table.snapshot();
        assertTrue(rows.size() <= 21, "rows: " + rows.size());
        assertEquals(100_000, rows.stream().mapToLong(r -> r.values()[0]).sum());
    }

    @Test
    void aSiteKeepsTheNoteOfItsLastNotedObservationAndOtherKeepsNone() {
        SiteTable table = new SiteTable(1, 1);
        table.addNoted("a", "region 1", 1);
        table.add("a", 1); // unnoted: the last note stays
        table.addNoted("b", "region 2", 1); // past the cap: counted in other, its note dropped
        List<SiteTable.Row> rows = table.snapshot();
        assertEquals("a", rows.get(0).site());
        assertEquals("region 1", rows.get(0).note());
        assertEquals(SiteTable.OTHER, rows.get(1).site());
        assertNull(rows.get(1).note());
        table.addNoted("a", "region 3", 1);
        assertEquals("region 3", table.snapshot().get(0).note());
    }

    @Test
    void longSitesAreCut() {
        SiteTable table = new SiteTable(2, 1);
        table.add("x".repeat(1000), 1);
        assertEquals(200, table.snapshot().get(0).site().length());
    }
}
