package io.blockscope.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A JVM's CPU time by the kind of thread that spent it, read from Linux's {@code /proc/PID/task}:
 * where a whole agent's cost goes that the probe switch cannot see (the JIT compiling the advice and
 * the instrumented methods, the collector freeing what the agent allocates, JFR's own threads, the
 * agent's threads). The RPC server's and the RegionServer's benchmarks both read it, so their parts
 * render alike ({@code overhead-parts} in docs/results/render.py). /proc cuts thread names to 15
 * characters; the parts match on prefixes. A thread that ended before a reading took its time with
 * it from the threads but not from the process's total: that difference is {@link Part#ENDED}, so
 * the parts always add up to the total.
 */
public final class ThreadCpu {

    /** The kinds of thread, by name as the JDK and the agent set them; in the JSON's order. */
    public enum Part {
        /** C1 and C2 compiler threads. */
        JIT,
        /** The collector's worker, concurrent and refinement threads. */
        GC,
        /** The VM thread: safepoint operations, among them the collector's pauses on some collectors. */
        VM,
        /** JFR's recorder and periodic-task threads. */
        JFR,
        /** The agent's threads: endpoint, JFR stream, live page, start-up. */
        AGENT,
        /** Every other live thread: RPC handlers, readers (where the probes' advice runs), the JDK's small ones. */
        APP,
        /** Threads that ended between two readings (the total less the live threads). */
        ENDED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The agent's threads, or the prefixes of their names (the exporter's pools number theirs); the
     * example server names its own threads {@code blockscope-serve-*}, so the prefix alone won't do.
     */
    private static final List<String> AGENT_THREADS =
            List.of("blockscope-exporter", "blockscope-live-page", "blockscope-jfr-gc", "blockscope-start");

    private ThreadCpu() {}

    public static Part part(String threadName) {
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
            return Part.JIT;
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")) {
            return Part.GC;
        }
        if (threadName.equals("VM Thread")) {
            return Part.VM;
        }
        if (threadName.startsWith("JFR ")) {
            return Part.JFR;
        }
        String cut = cut(threadName);
        for (String agentThread : AGENT_THREADS) {
            if (cut.startsWith(cut(agentThread))) {
                return Part.AGENT;
            }
        }
        return Part.APP;
    }

    /** A name as /proc shows it: its first 15 characters. */
    private static String cut(String name) {
        return name.length() > 15 ? name.substring(0, 15) : name;
    }

    /** CPU nanoseconds (user + system) by {@link Part} ordinal, the process's total last. */
    public static long[] read(long pid, long nanosPerTick) throws IOException {
        long[] ticks = new long[Part.values().length + 1];
        long live = 0;
        Path process = Path.of("/proc", Long.toString(pid));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path task : tasks) {
                long t;
                String name;
                try {
                    name = readProc(task.resolve("comm")).strip();
                    t = ticks(readProc(task.resolve("stat")));
                } catch (NoSuchFileException ended) {
                    continue; // ended while listed: its time is in the total, counted as ENDED
                }
                ticks[part(name).ordinal()] += t;
                live += t;
            }
        }
        long total = ticks(readProc(process.resolve("stat")));
        ticks[Part.ENDED.ordinal()] = Math.max(0, total - live);
        ticks[ticks.length - 1] = Math.max(total, live);
        long[] nanos = new long[ticks.length];
        for (int i = 0; i < ticks.length; i++) {
            nanos[i] = ticks[i] * nanosPerTick;
        }
        return nanos;
    }

    /** Live threads by part: shows that the parts found the threads they name (e.g. the agent's in arm B). */
    public static Map<String, Integer> threadCounts(long pid) throws IOException {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Part part : Part.values()) {
            if (part != Part.ENDED) {
                counts.put(part.label(), 0);
            }
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    counts.merge(part(readProc(task.resolve("comm")).strip()).label(), 1, Integer::sum);
                } catch (NoSuchFileException ended) {
                    // ended while listed
                }
            }
        }
        return counts;
    }

    /** utime + stime of a {@code stat} line; the name in parentheses may hold spaces and parentheses. */
    public static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after the name: state is field 3 of proc(5)'s stat, utime 14 and stime 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Nanoseconds per clock tick, from {@code getconf CLK_TCK} (100 ticks a second where it cannot say). */
    public static long nanosPerTick() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (p.waitFor() == 0) {
                return 1_000_000_000L / Long.parseLong(out);
            }
        } catch (IOException | RuntimeException e) {
            // no getconf: Linux's USER_HZ is 100 on every platform it supports
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 10_000_000L;
    }

    private static String readProc(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.ISO_8859_1);
    }
}
