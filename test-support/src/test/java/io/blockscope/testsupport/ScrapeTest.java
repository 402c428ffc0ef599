package io.blockscope.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ScrapeTest {

    private static final Scrape SCRAPE = Scrape.parse(String.join(
            "\n",
            "# HELP blockscope_block_cache_gets_total Block cache lookups.",
            "# TYPE blockscope_block_cache_gets_total counter",
            "blockscope_block_cache_gets_total{tier=\"l1\",result=\"hit\"} 5.0",
            "blockscope_block_cache_gets_total{tier=\"l2\",result=\"hit\"} 7.0 1700000000000",
            "blockscope_copy_site_calls_total{site=\"a.B.c:12, \\\"quoted\\\" \\\\ \\nnext\"} 3",
            "blockscope_gc_pause_seconds_bucket{le=\"+Inf\"} 2",
            "blockscope_bucket_cache_wasted_bytes +Inf",
            "process_start_time_seconds NaN",
            ""));

    @Test
    void readsNamesLabelsAndValuesWithTimestampsEscapesAndSpecialNumbers() {
        assertEquals(7, SCRAPE.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2"));
        assertEquals(
                Map.of("site", "a.B.c:12, \"quoted\" \\ \nnext"),
                SCRAPE.matching("blockscope_copy_site_calls_total").get(0).labels());
        assertEquals(3, SCRAPE.value("blockscope_copy_site_calls_total", "site", "a.B.c:12, \"quoted\" \\ \nnext"));
        assertEquals(2, SCRAPE.value("blockscope_gc_pause_seconds_bucket", "le", "+Inf"));
        assertEquals(Double.POSITIVE_INFINITY, SCRAPE.value("blockscope_bucket_cache_wasted_bytes"));
        assertTrue(Double.isNaN(SCRAPE.value("process_start_time_seconds")));
        assertEquals(6, SCRAPE.all().size(), "comments and blank lines are no samples");
    }

    @Test
    void oneSampleLookupsFailWithWhatWasExported() {
        AssertionError none = assertThrows(
                AssertionError.class, () -> SCRAPE.value("blockscope_block_cache_gets_total", "tier", "l3"));
        assertTrue(none.getMessage().contains("found 0"), none.getMessage());
        assertTrue(
                none.getMessage().contains("blockscope_block_cache_gets_total{tier=l1, result=hit} 5.0"),
                none.getMessage());
        AssertionError partial = assertThrows(
                AssertionError.class, () -> SCRAPE.value("blockscope_block_cache_gets_total", "tier", "l1"));
        assertTrue(partial.getMessage().contains("found 0"), "labels must match exactly: " + partial.getMessage());
    }

    @Test
    void countsSumsAndPrefixes() {
        assertEquals(0, SCRAPE.count("blockscope_block_cache_gets_total", "tier", "l3", "result", "hit"));
        assertEquals(5, SCRAPE.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"));
        assertEquals(12, SCRAPE.sum("blockscope_block_cache_gets_total"));
        assertEquals(7, SCRAPE.sum("blockscope_block_cache_gets_total", Scrape.label("tier", "l2")));
        assertEquals(0, SCRAPE.sum("blockscope_block_leaks_total"));
        assertEquals(2, SCRAPE.seriesCount("blockscope_block_cache"));
        assertTrue(SCRAPE.has("process_start_time_seconds"));
        assertFalse(SCRAPE.has("process_start_time"));
    }
}
