package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blockscope.server.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pe --agent-switch}: off and on windows alternate through the agent's switch (here a
 * stand-in with the agent's MBean name and attributes), each on window is compared with both of its
 * neighbours, and the JVM is left with the probes it had.
 */
class ProbeSwitchRunTest {

    @TempDir
    Path dir;

    @Test
    void windowsAlternateOffAndOnAndTheJvmKeepsItsProbes() throws Exception {
        Path json = dir.resolve("switch.json");
        try (FakeProbeSwitch agent = FakeProbeSwitch.register()) {
            int exit = Main.execute(
                    "pe",
                    "--agent-switch",
                    "2",
                    "--switch-probes",
                    "block-get,block-return",
                    "--switch-settle",
                    "50ms",
                    "--workload",
                    "randomRead",
                    "--threads",
                    "1",
                    "--read-path",
                    "zero-copy",
                    "--duration",
                    "150ms",
                    "--warmup",
                    "0s",
                    "--rows",
                    "2000",
                    "--no-progress",
                    "--json",
                    json.toString());
            assertEquals(0, exit);
            // checked and normalised first, then off, on, off, on, off, then back to what it was
            assertEquals(
                    List.of(
                            "block-get,block-return",
                            "none",
                            "block-get,block-return",
                            "none",
                            "block-get,block-return",
                            "none",
                            "all"),
                    agent.installs());
        }
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, report.path("pairs").asInt());
        assertEquals("block-get,block-return", report.path("probes").asText());
        List<Boolean> states = new ArrayList<>();
        for (JsonNode run : report.path("runs")) {
            states.add(run.path("agent").asBoolean());
            assertTrue(run.path("ops").asLong() > 0, run.toString());
            assertTrue(run.path("cpuNanosPerOp").asDouble() > 0, run.toString());
            assertTrue(run.path("workerCpuNanosPerOp").asDouble() > 0, run.toString());
            assertTrue(
                    run.path("workerCpuNanosPerOp").asDouble()
                            <= run.path("cpuNanosPerOp").asDouble() * 1.01,
                    "the workers' CPU is part of the process's: " + run);
        }
        assertEquals(List.of(false, true, false, true, false), states);
        assertEquals(2, report.path("pairCpuRatios").size());
        JsonNode cpu = report.path("cpuPerOpRatio");
        assertTrue(cpu.path("low").asDouble() <= cpu.path("median").asDouble(), cpu.toString());
        assertTrue(cpu.path("median").asDouble() <= cpu.path("high").asDouble(), cpu.toString());
        assertTrue(report.path("command").asText().contains("--workload randomRead"), report.toString());
        assertTrue(
                report.path("command").asText().contains("blockscope-example-server.jar pe --agent-switch 2"),
                report.path("command").asText());
    }

    @Test
    void inPauseModeTheProbesStayInAndOnlyTheirRecordingAlternates() throws Exception {
        Path json = dir.resolve("pause.json");
        try (FakeProbeSwitch agent = FakeProbeSwitch.register()) {
            int exit = Main.execute(
                    "pe",
                    "--agent-switch",
                    "2",
                    "--switch-mode",
                    "pause",
                    "--workload",
                    "randomRead",
                    "--threads",
                    "1",
                    "--read-path",
                    "zero-copy",
                    "--duration",
                    "100ms",
                    "--warmup",
                    "0s",
                    "--rows",
                    "2000",
                    "--no-progress",
                    "--json",
                    json.toString());
            assertEquals(0, exit);
            assertEquals(
                    List.of("all", "pause", "resume", "pause", "resume", "pause", "resume", "all"), agent.installs());
        }
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> probes = new ArrayList<>();
        report.path("runs").forEach(run -> probes.add(run.path("probes").asText()));
        assertEquals(List.of("paused", "all", "paused", "all", "paused"), probes);
        assertTrue(report.path("measured").asText().contains("recording paused"), report.toString());
        assertTrue(report.path("command").asText().contains("--switch-mode pause"), report.toString());
    }

    @Test
    void inLeakTrackingModeEveryProbeRecordsAndOnlyLeakTrackingAlternates() throws Exception {
        Path json = dir.resolve("leak.json");
        try (FakeProbeSwitch agent = FakeProbeSwitch.register()) {
            int exit = Main.execute(leakTrackingRun(json));
            assertEquals(0, exit);
            assertEquals(
                    List.of(
                            "leak on",
                            "all",
                            "leak off",
                            "leak on",
                            "leak off",
                            "leak on",
                            "leak off",
                            "leak on",
                            "all"),
                    agent.installs());
        }
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> probes = new ArrayList<>();
        report.path("runs").forEach(run -> probes.add(run.path("probes").asText()));
        assertEquals(List.of("all", "all + leak tracking", "all", "all + leak tracking", "all"), probes);
        assertTrue(report.path("measured").asText().contains("leak tracking on in the on windows"), report.toString());
    }

    @Test
    void leakTrackingModeIsRefusedBeforeAnyWindowWhenTheAgentHasNone() throws Exception {
        Path json = dir.resolve("refused.json");
        try (FakeProbeSwitch agent = FakeProbeSwitch.registerWithoutLeakTracking()) {
            assertNotEquals(0, Main.execute(leakTrackingRun(json)));
            assertEquals(List.of(), agent.installs(), "refused before anything was switched");
        }
        assertFalse(Files.exists(json));
    }

    private static String[] leakTrackingRun(Path json) {
        return new String[] {
            "pe", "--agent-switch", "2", "--switch-mode", "leak-tracking", "--workload", "randomRead", "--threads", "1",
            "--read-path", "zero-copy", "--duration", "100ms", "--warmup", "0s", "--rows", "2000", "--no-progress",
            "--json", json.toString()
        };
    }

    @Test
    void eachOnWindowIsComparedWithTheMeanOfItsTwoNeighbours() {
        // CPU per op: off 100, on 110, off 120, on 130, off 140 (a machine slowing down linearly)
        List<ProbeSwitchRun.Window> windows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long cpuPerOp = 100 + 10L * i;
            windows.add(new ProbeSwitchRun.Window(
                    i,
                    i % 2 == 1,
                    i % 2 == 1 ? "all" : "none",
                    1000,
                    1_000_000_000L,
                    cpuPerOp * 1000,
                    cpuPerOp * 900,
                    0,
                    0,
                    0,
                    0));
        }
        double[][] ratios = ProbeSwitchRun.pairRatios(windows);
        assertArrayEquals(new double[] {1.0, 1.0}, ratios[0], 1e-12, "a linear drift cancels out");
        assertArrayEquals(new double[] {1.0, 1.0}, ratios[1], 1e-12);
        assertArrayEquals(new double[] {1.0, 1.0}, ratios[2], 1e-12);
    }

    @Test
    void withoutTheAgentsSwitchItSaysHowToStartTheJvm() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> MeasuredJvm.self().allProbes());
        assertTrue(e.getMessage().contains("blockscope-agent-diagnostics.jar"), e.getMessage());
    }

    @Test
    void anotherJvmIsReachedByPidThroughItsLocalJmxAgent() throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        IdleJvm.class.getName())
                .redirectErrorStream(true)
                .start();
        try {
            assertEquals(
                    "idle",
                    new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream())).readLine());
            try (MeasuredJvm jvm = MeasuredJvm.attach(child.pid())) {
                assertEquals("process " + child.pid(), jvm.description());
                assertTrue(jvm.cpuNanos() > 0, "the child's CPU time, read over JMX");
                assertTrue(jvm.compilationMillis() >= 0);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, jvm::allProbes);
                assertTrue(e.getMessage().contains("is not in process " + child.pid()), e.getMessage());
                assertTrue(e.getMessage().contains("blockscope-agent-diagnostics.jar"), e.getMessage());
            }
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    @Test
    void probesTheAgentRefusesAreReportedWithItsReason() throws Exception {
        try (FakeProbeSwitch agent = FakeProbeSwitch.register()) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> MeasuredJvm.self().install("bogus"));
            assertTrue(e.getMessage().contains("unknown probe bogus"), e.getMessage());
            assertEquals(List.of(), agent.installs());
        }
    }
}
