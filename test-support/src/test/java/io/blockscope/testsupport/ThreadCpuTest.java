package io.blockscope.testsupport;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blockscope.testsupport.ThreadCpu.Part;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Thread kinds by name as /proc cuts them, and the parts of a live JVM's CPU adding up. */
class ThreadCpuTest {

    @Test
    void threadsAreSortedByTheNamesTheJdkAndTheAgentGiveThem() {
        assertAll(
                () -> assertEquals(Part.JIT, ThreadCpu.part("C2 CompilerThre")),
                () -> assertEquals(Part.JIT, ThreadCpu.part("C1 CompilerThre")),
                () -> assertEquals(Part.GC, ThreadCpu.part("GC Thread#1")),
                () -> assertEquals(Part.GC, ThreadCpu.part("G1 Conc#0")),
                () -> assertEquals(Part.GC, ThreadCpu.part("G1 Refine#0")),
                () -> assertEquals(Part.VM, ThreadCpu.part("VM Thread")),
                () -> assertEquals(Part.JFR, ThreadCpu.part("JFR Recorder Th")),
                () -> assertEquals(Part.JFR, ThreadCpu.part("JFR Periodic Ta")),
                // the agent's pools, cut to 15 characters as /proc/PID/task/*/comm shows them
                () -> assertEquals(Part.AGENT, ThreadCpu.part("blockscope-expo")),
                () -> assertEquals(Part.AGENT, ThreadCpu.part("blockscope-jfr-")),
                () -> assertEquals(Part.AGENT, ThreadCpu.part("blockscope-star")),
                () -> assertEquals(Part.AGENT, ThreadCpu.part("blockscope-live")),
                // HBase's handlers, the example server's threads and the JDK's small ones are the application's
                () -> assertEquals(Part.APP, ThreadCpu.part("RpcServer.defau")),
                () -> assertEquals(Part.APP, ThreadCpu.part("VM Periodic Tas")),
                () -> assertEquals(Part.APP, ThreadCpu.part("VM Thread 2")),
                () -> assertEquals(Part.APP, ThreadCpu.part("blockscope-serv")),
                () -> assertEquals(Part.APP, ThreadCpu.part("rpc-handler-3")));
    }

    /** The name may hold spaces and parentheses; the times are fields 14 and 15 of stat(5). */
    @Test
    void ticksAreUserPlusSystemTime() {
        assertEquals(
                42,
                ThreadCpu.ticks("4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 1 0 99 0 0"));
        assertEquals(
                1000,
                ThreadCpu.ticks("4242 (C2 (Compiler) x) S 1 2 3 0 -1 4194368 100 0 0 0 731 269 0 0 20 0 1 0 5 0 0"));
    }

    /** This JVM has compiled code and run a collector; the parts add up to the process's total. */
    @Test
    void aLiveJvmsPartsAddUpToItsTotal() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        System.gc();
        long pid = ProcessHandle.current().pid();
        assertEquals(1, ThreadCpu.threadCounts(pid).get("vm"));
        long[] nanos = ThreadCpu.read(pid, ThreadCpu.nanosPerTick());
        long total = nanos[nanos.length - 1];
        long sum = Arrays.stream(nanos, 0, nanos.length - 1).sum();
        assertAll(
                () -> assertEquals(total, sum, "the parts with ENDED are the total"),
                () -> assertTrue(nanos[Part.JIT.ordinal()] > 0, "the JIT has compiled: " + Arrays.toString(nanos)),
                () -> assertTrue(nanos[Part.APP.ordinal()] > 0, "the test's own thread ran"),
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
