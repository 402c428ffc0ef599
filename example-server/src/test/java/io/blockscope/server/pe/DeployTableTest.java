package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console table: each figure ends under its heading, and an unknown figure reads n/a, not 0. */
class DeployTableTest {

    private static final List<String> RIGHT_ALIGNED = List.of(
            "ops/s",
            "p50 us",
            "p95 us",
            "p99 us",
            "p99.9 us",
            "gc#",
            "gc ms/s",
            "alloc MB/s",
            "cpu",
            "data hit",
            "evict/s");

    @Test
    void everyFigureEndsUnderItsHeading() {
        String header = DeployTable.header();
        String line = DeployTable.line("cbc-offheap", loading(figures(2.5e8, 1.25, 0.875)));
        assertEquals(header.length(), line.length(), header + "\n" + line);
        for (String heading : RIGHT_ALIGNED) {
            int end = header.indexOf(heading) + heading.length();
            assertNotEquals(' ', line.charAt(end - 1), heading + " has a value ending under it: " + line);
            if (end < line.length()) {
                assertEquals(' ', line.charAt(end), heading + "'s value ends where the heading does: " + line);
            }
        }
        assertEquals(
                List.of(
                        "cbc-offheap",
                        "x8",
                        "1000",
                        "10.0",
                        "20.0",
                        "30.0",
                        "40.0",
                        "3",
                        "3.000",
                        "250.0",
                        "1.25",
                        "0.875",
                        "2.0"),
                List.of(line.trim().split(" +")));
    }

    @Test
    void unknownFiguresReadNotAvailable() {
        String header = DeployTable.header();
        String line = DeployTable.line("lru", loading(figures(null, null, null)));
        for (String heading : List.of("alloc MB/s", "cpu", "data hit")) {
            int end = header.indexOf(heading) + heading.length();
            assertEquals("n/a", line.substring(end - 3, end), heading + ": " + line);
        }
    }

    @Test
    void failedWorkersAreCountedWithTheFirstError() {
        LoadingResult failed = new LoadingResult(
                "x8", 8, 1000, 0.125, 1.0, 2, "IOException: gone", figures(null, null, null), List.of());
        assertEquals("    ! 2 worker(s) failed: IOException: gone", DeployTable.failures(failed));
    }

    private static LoadingResult loading(Figures totals) {
        return new LoadingResult("x8", 8, 1000, 0.125, 1.0, 0, null, totals, List.of(totals));
    }

    private static Figures figures(Double allocBytesPerSec, Double cpuCores, Double dataHit) {
        return new Figures(
                2,
                2,
                2000,
                1000,
                12,
                10,
                20,
                30,
                40,
                50,
                3,
                0.006,
                0.003,
                allocBytesPerSec,
                cpuCores,
                0.9,
                dataHit,
                12.5,
                4,
                2,
                100L << 20,
                300L << 20,
                null,
                null,
                null);
    }
}
