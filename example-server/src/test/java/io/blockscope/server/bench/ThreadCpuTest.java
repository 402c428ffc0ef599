package io.blockscope.server.bench;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Thread kinds by name as /proc cuts them, and the parts of a live JVM's CPU adding up. */
class ThreadCpuTest {

    @Test
    void threadsAreSortedByTheNamesTheJdkAndTheAgentGiveThem() {
        assertAll(
                () -> assertEquals(ThreadCpu.Part.JIT, ThreadCpu.part("C2 CompilerThre")),
                () -> assertEquals(ThreadCpu.Part.JIT, ThreadCpu.part("C1 CompilerThre")),
                () -> assertEquals(ThreadCpu.Part.GC, ThreadCpu.part("GC Thread#1")),
                () -> assertEquals(ThreadCpu.Part.GC, ThreadCpu.part("G1 Conc#0")),
                () -> assertEquals(ThreadCpu.Part.GC, ThreadCpu.part("G1 Refine#0")),
                () -> assertEquals(ThreadCpu.Part.VM, ThreadCpu.part("VM Thread")),
                () -> assertEquals(ThreadCpu.Part.APP, ThreadCpu.part("VM Periodic Tas")),
                () -> assertEquals(ThreadCpu.Part.JFR, ThreadCpu.part("JFR Recorder Th")),
                () -> assertEquals(ThreadCpu.Part.AGENT, ThreadCpu.part("blockscope-expo")),
                () -> assertEquals(ThreadCpu.Part.AGENT, ThreadCpu.part("blockscope-jfr-")),
                () -> assertEquals(ThreadCpu.Part.AGENT, ThreadCpu.part("blockscope-live")),
                () -> assertEquals(ThreadCpu.Part.APP, ThreadCpu.part("blockscope-serv")),
                () -> assertEquals(ThreadCpu.Part.APP, ThreadCpu.part("rpc-handler-3")));
    }

    /** The name may hold spaces and parentheses; the times are fields 14 and 15 of stat(5). */
    @Test
    void ticksAreUserPlusSystemTime() {
        String stat = "4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 1 0 99 0 0";
        assertEquals(42, ThreadCpu.ticks(stat));
    }

    /** This JVM has compiled code and run a collector; the parts add up to the process's total. */
    @Test
    void aLiveJvmsPartsAddUpToItsTotal() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        System.gc();
        long[] nanos = ThreadCpu.read(ProcessHandle.current().pid());
        long total = nanos[nanos.length - 1];
        long sum = Arrays.stream(nanos, 0, nanos.length - 1).sum();
        assertAll(
                () -> assertEquals(total, sum, "the parts with ENDED are the total"),
                () -> assertTrue(
                        nanos[ThreadCpu.Part.JIT.ordinal()] > 0, "the JIT has compiled: " + Arrays.toString(nanos)),
                () -> assertTrue(nanos[ThreadCpu.Part.APP.ordinal()] > 0, "the test's own thread ran"),
                () -> assertTrue(
                        Math.abs(total
                                        - ProcessHandle.current()
                                                .info()
                                                .totalCpuDuration()
                                                .orElseThrow()
                                                .toNanos())
                                <= total / 10 + 50_000_000L,
                        "the total is the OS's figure for the process"));
    }
}
