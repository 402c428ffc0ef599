package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Short in-process PE runs: the JSON holds a complete record per (workload, configuration, threads), and the chart is drawn. */
class PeSmokeTest {

    private static final List<String> REQUIRED = List.of(
            "workload",
            "readPath",
            "deploy",
            "threads",
            "opsPerSec",
            "rowsPerSec",
            "p50Micros",
            "p99Micros",
            "p999Micros",
            "gcPauseCount",
            "gcPauseSeconds",
            "allocBytesPerOp",
            "allocBytesPerRow",
            "gainVsBaseline",
            "ops",
            "rowsRead");

    @TempDir
    Path dir;

    @Test
    void everyWorkloadAndReadPathGetsACompleteRecord() throws Exception {
        Path json = dir.resolve("pe.json");
        Path chart = dir.resolve("pe.png");
        int exit = Main.execute(
                "pe",
                "--workload",
                "multiget,scanRange,scan10pct,randomRead",
                "--threads",
                "1,2",
                "--ops",
                "40",
                "--rounds",
                "1",
                "--warmup",
                "200ms",
                "--rows",
                "3000",
                "--value-size",
                "500",
                "--multiget-rows",
                "20",
                "--scan-rows",
                "500",
                "--no-progress",
                "--json",
                json.toString(),
                "--chart",
                chart.toString());
        assertEquals(0, exit);
        JsonNode report = new ObjectMapper().readTree(Files.readString(json));
        JsonNode records = report.path("records");
        assertEquals(4 * 2 * 2, records.size()); // rotated rounds: RpcEndToEndTest
        for (JsonNode r : records) {
            for (String field : REQUIRED) {
                assertTrue(r.hasNonNull(field), "record lacks " + field + ": " + r);
            }
            assertEquals(40, r.path("ops").asLong(), r.toString());
            assertTrue(r.path("opsPerSec").asDouble() > 0);
            assertTrue(r.path("p99Micros").asDouble() >= r.path("p50Micros").asDouble());
            assertEquals("cbc-offheap", r.path("deploy").asText());
            assertEquals("in-process", r.path("target").asText());
            assertEquals(0, r.path("errors").asLong());
        }
        // Baseline first, then the compared configuration, for every (workload, threads).
        for (int i = 0; i < records.size(); i += 2) {
            assertEquals("copy", records.get(i).path("readPath").asText());
            assertEquals("zero-copy", records.get(i + 1).path("readPath").asText());
            assertEquals(1.0, records.get(i).path("gainVsBaseline").asDouble());
        }
        JsonNode multigetCopy = records.get(0);
        JsonNode multigetZeroCopy = records.get(1);
        assertEquals("multiget", multigetCopy.path("workload").asText());
        assertEquals(40 * 20, multigetZeroCopy.path("rowsRead").asLong());
        assertTrue(
                multigetZeroCopy.path("allocBytesPerRow").asDouble() * 10
                        < multigetCopy.path("allocBytesPerRow").asDouble(),
                "copy mode copies a whole block per row read; zero-copy must allocate far less: " + multigetCopy
                        + " vs " + multigetZeroCopy);
        JsonNode scanRange = records.get(4);
        assertEquals("scanRange", scanRange.path("workload").asText());
        assertEquals(40 * 500, scanRange.path("rowsRead").asLong(), "scanRange reads every row of its range");
        assertEquals(0, scanRange.path("rowsReturned").asLong(), "and returns none");
        assertEquals("worker-threads", scanRange.path("allocSource").asText());
        byte[] png = Files.readAllBytes(chart);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
        assertEquals(1, report.path("settings").path("rounds").asInt());
    }

    @Test
    void theFiveDeploysCompareInOneRun() throws Exception {
        Path json = dir.resolve("deploys.json");
        int exit = Main.execute(
                "pe",
                "--workload",
                "randomRead",
                "--threads",
                "1",
                "--ops",
                "30",
                "--rounds",
                "1",
                "--warmup",
                "0s",
                "--rows",
                "2000",
                "--value-size",
                "300",
                "--deploy",
                "lru,cbc-offheap,cbc-onheap,cbc-file,meta-only",
                "--read-path",
                "zero-copy",
                "--no-progress",
                "--json",
                json.toString());
        assertEquals(0, exit);
        JsonNode records = new ObjectMapper().readTree(Files.readString(json)).path("records");
        assertEquals(5, records.size());
        List<String> deploys = List.of("lru", "cbc-offheap", "cbc-onheap", "cbc-file", "meta-only");
        List<String> readPaths = List.of("n/a", "zero-copy", "zero-copy", "zero-copy", "n/a");
        for (int i = 0; i < 5; i++) {
            assertEquals(deploys.get(i), records.get(i).path("deploy").asText());
            assertEquals(readPaths.get(i), records.get(i).path("readPath").asText());
            assertEquals("lru", records.get(i).path("baseline").asText());
        }
        double metaOnlyHits = records.get(4).path("cacheHitRatio").asDouble();
        assertTrue(
                metaOnlyHits < records.get(1).path("cacheHitRatio").asDouble(),
                "meta-only caches no data block, so it must miss more than cbc-offheap");
    }
}
