package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The whole-agent run's pure parts, without a RegionServer: its pair figures (thread parts: ThreadCpuTest). */
class WholeAgentStatisticsTest {

    @Test
    void pairsAreBOverAWhicheverRanFirst() {
        List<Map<String, Object>> runs = List.of(
                run("A", 100, 50), run("B", 110, 60), // A first
                run("B", 105, 40), run("A", 100, 40)); // B first
        assertArrayEquals(new double[] {1.10, 1.05}, PairStatistics.pairRatios(runs, "cpuNanosPerOp"), 1e-12);
    }

    @Test
    void aKindsShareIsItsChangeOverAsWholeCpuPerOp() {
        List<Map<String, Object>> runs = List.of(run("B", 110, 60), run("A", 100, 50));
        // B's JIT 60 against A's 50, over A's total 100: +10%
        assertArrayEquals(new double[] {10.0}, PairStatistics.partShares(runs, "jit"), 1e-12);
    }

    @Test
    void runsThatDoNotPairAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> PairStatistics.pairRatios(List.of(run("A", 1, 1)), "cpuNanosPerOp"));
        assertThrows(
                IllegalArgumentException.class,
                () -> PairStatistics.pairRatios(List.of(run("A", 1, 1), run("A", 1, 1)), "cpuNanosPerOp"));
    }

    @Test
    void pairsForAnIntervalGrowAsTheSquareOfItsWidth() {
        // a half-width of 2% from 10 pairs needs 4 times the pairs for 1%
        assertEquals(40, PairStatistics.pairsForHalfWidth(0.99, 1.03, 10, 0.01));
        assertEquals(1, PairStatistics.pairsForHalfWidth(1.0, 1.0, 1, 0.01));
    }

    private static Map<String, Object> run(String arm, double cpu, double jit) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("arm", arm);
        r.put("cpuNanosPerOp", cpu);
        r.put(PairStatistics.BY_PART, Map.of("jit", jit, PairStatistics.TOTAL, cpu));
        return r;
    }

    @Test
    void eventsPerOperationAreEachSeriesIncreaseOverTheOperations() {
        String before = "# TYPE blockscope_block_cache_gets_total counter\n"
                + "blockscope_block_cache_gets_total{result=\"hit\",tier=\"l2\"} 100.0\n"
                + "blockscope_block_cache_gets_total_created{result=\"hit\",tier=\"l2\"} 1.7E9\n"
                + "blockscope_copy_to_heap_total{component=\"value\"} 10 1733500000000\n"
                + "blockscope_block_refs_outstanding{tier=\"l2\"} 5.0\n";
        String after = "blockscope_block_cache_gets_total{result=\"hit\",tier=\"l2\"} 400.0\n"
                + "blockscope_copy_to_heap_total{component=\"value\"} 70\n"
                + "blockscope_block_cache_returns_total{tier=\"l2\"} 300.0\n";
        Map<String, Double> per =
                AgentScrapes.perOperation(AgentScrapes.eventCounters(before), AgentScrapes.eventCounters(after), 100);
        assertEquals(
                Map.of(
                        "blockscope_block_cache_gets_total{result=\"hit\",tier=\"l2\"}", 3.0,
                        "blockscope_copy_to_heap_total{component=\"value\"}", 0.6,
                        // a series first seen after the window's start counted from 0
                        "blockscope_block_cache_returns_total{tier=\"l2\"}", 3.0),
                per);
    }
}
