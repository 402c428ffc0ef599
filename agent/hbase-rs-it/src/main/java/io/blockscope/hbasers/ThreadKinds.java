package io.blockscope.hbasers;

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
 * A RegionServer's CPU time by the kind of thread that spent it, from Linux's {@code /proc/PID/task}:
 * the same kinds, names and prefixes as example-server's {@code bench.ThreadCpu} (which that module's
 * tests keep to themselves), so the RegionServer's figures render with the RPC server's
 * ({@code overhead-parts} in docs/results/render.py). /proc cuts thread names to 15 characters; the
 * kinds match on prefixes. A thread that ended between two readings took its time with it from the
 * threads but not from the process's total: that difference is {@link Kind#ENDED}.
 */
final class ThreadKinds {

    /** The kinds, in the order of the JSON's {@code cpuNanosPerOpByPart}. */
    enum Kind {
        /** C1 and C2 compiler threads. */
        JIT,
        /** The collector's worker, concurrent and refinement threads. */
        GC,
        /** The VM thread: safepoint operations, among them the collector's pauses. */
        VM,
        /** JFR's recorder and periodic-task threads. */
        JFR,
        /** The agent's threads: endpoint, JFR stream, live page, start-up. */
        AGENT,
        /** Every other live thread: RPC handlers, readers (where the probes' advice runs), HBase's chores. */
        APP,
        /** Threads that ended between two readings (the total less the live threads). */
        ENDED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The agent's threads or their names' prefixes (its exporter pools number theirs). */
    private static final List<String> AGENT_THREADS =
            List.of("blockscope-exporter", "blockscope-live-page", "blockscope-jfr-gc", "blockscope-start");

    private ThreadKinds() {}

    static Kind kind(String threadName) {
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
            return Kind.JIT;
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")) {
            return Kind.GC;
        }
        if (threadName.equals("VM Thread")) {
            return Kind.VM;
        }
        if (threadName.startsWith("JFR ")) {
            return Kind.JFR;
        }
        String cut = cut(threadName);
        for (String agentThread : AGENT_THREADS) {
            if (cut.startsWith(cut(agentThread))) {
                return Kind.AGENT;
            }
        }
        return Kind.APP;
    }

    private static String cut(String name) {
        return name.length() > 15 ? name.substring(0, 15) : name;
    }

    /** CPU nanoseconds (user + system) by {@link Kind} ordinal, the process's total last. */
    static long[] read(long pid, long nanosPerTick) throws IOException {
        long[] ticks = new long[Kind.values().length + 1];
        long live = 0;
        Path process = Path.of("/proc", Long.toString(pid));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path task : tasks) {
                long t;
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.ISO_8859_1)
                            .strip();
                    t = ticks(Files.readString(task.resolve("stat"), StandardCharsets.ISO_8859_1));
                } catch (NoSuchFileException ended) {
                    continue; // ended while listed: its time is in the total, counted as ENDED
                }
                ticks[kind(name).ordinal()] += t;
                live += t;
            }
        }
        long total = ticks(Files.readString(process.resolve("stat"), StandardCharsets.ISO_8859_1));
        ticks[Kind.ENDED.ordinal()] = Math.max(0, total - live);
        ticks[ticks.length - 1] = Math.max(total, live);
        long[] nanos = new long[ticks.length];
        for (int i = 0; i < ticks.length; i++) {
            nanos[i] = ticks[i] * nanosPerTick;
        }
        return nanos;
    }

    /** Live threads by kind: shows that the kinds found the threads they name (e.g. the agent's in arm B). */
    static Map<String, Integer> threadCounts(long pid) throws IOException {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            if (kind != Kind.ENDED) {
                counts.put(kind.label(), 0);
            }
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.ISO_8859_1)
                            .strip();
                    counts.merge(kind(name).label(), 1, Integer::sum);
                } catch (NoSuchFileException ended) {
                    // ended while listed
                }
            }
        }
        return counts;
    }

    /** utime + stime of a {@code stat} line; the name in parentheses may hold spaces and parentheses. */
    static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after the name: state is field 3 of proc(5)'s stat, utime 14 and stime 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Nanoseconds per clock tick, from {@code getconf CLK_TCK} (100 where it cannot say). */
    static long nanosPerTick() {
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
}
