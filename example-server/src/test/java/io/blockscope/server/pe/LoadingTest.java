package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The loadings' row counts: data read = factor x cache, mapped to rows by the table's average row. */
class LoadingTest {

    private static final long MB = 1L << 20;

    @Test
    void rowsAreTheFactorTimesTheCacheOverTheAverageRow() {
        // 1,000,000 rows in 4,000 MB: 4,194.304 B per row; a 100 MB cache
        List<Loading> plan = Loading.plan(Loading.SEED_FACTORS, 100 * MB, 1_000_000, 4_000 * MB);
        assertEquals(
                List.of("all-in-cache", "just-out", "good-bit-out", "mostly-misses"),
                plan.stream().map(Loading::name).toList());
        // ceil(0.5 * 100 MB / 4194.304) = 12,500; 2x: 50,000; 4x: 100,000; 16x: 400,000
        assertEquals(
                List.of(12_500L, 50_000L, 100_000L, 400_000L),
                plan.stream().map(Loading::rows).toList());
        assertEquals(1.0, plan.get(0).expectedHitRatio());
        assertEquals(0.5, plan.get(1).expectedHitRatio());
        assertEquals(0.0625, plan.get(3).expectedHitRatio());
    }

    @Test
    void aPartialRowRoundsUpSoTheDataReadIsNeverBelowTheFactor() {
        List<Loading> plan = Loading.plan(List.of(1.0), 1000, 10, 3000); // 300 B per row: 3.33 rows
        assertEquals(4, plan.get(0).rows());
        assertEquals("x1", plan.get(0).name(), "factors other than the seed's are named by the factor");
    }

    @Test
    void aTableTooSmallForTheLargestLoadingSaysHowManyRowsItNeeds() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Loading.plan(Loading.SEED_FACTORS, 100 * MB, 100_000, 400 * MB));
        assertTrue(e.getMessage().contains("needs about 400,000 rows"), e.getMessage());
        assertTrue(e.getMessage().contains("--cache-size"), e.getMessage());
    }

    @Test
    void factorsMustAscendAboveZero() {
        assertThrows(IllegalArgumentException.class, () -> Loading.plan(List.of(2.0, 1.0), MB, 1000, 100 * MB));
        assertThrows(IllegalArgumentException.class, () -> Loading.plan(List.of(0.0, 1.0), MB, 1000, 100 * MB));
        assertThrows(IllegalArgumentException.class, () -> Loading.plan(List.of(), MB, 1000, 100 * MB));
    }
}
