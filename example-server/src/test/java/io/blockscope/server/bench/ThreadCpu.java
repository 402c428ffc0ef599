package io.blockscope.server.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A JVM's CPU time by the kind of thread that spent it, read from Linux's {@code /proc/PID/task}:
 * where a whole agent's cost goes that the probe switch cannot see (the JIT compiling the advice
 * and the instrumented methods, the collector freeing what the agent allocates, JFR's own threads,
 * the agent's threads). Thread names there are cut to 15 characters; the parts match on prefixes.
 * A thread that ended before a reading took its time with it from the threads but not from the
 * process's total: that difference is {@link Part#ENDED}, so the parts always add up to the total.
 */
final class ThreadCpu {

    /** The kinds of thread, by name as the JDK and the agent set them. */
    enum Part {
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
        /** Every other live thread: the application's (RPC handlers, readers) and the JDK's small ones. */
        APP,
        /** Threads that ended between two readings (the total less the live threads). */
        ENDED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Linux's USER_HZ: {@code /proc} counts CPU time in ticks of 10 ms on every supported platform. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    /**
     * The agent's threads, or the prefixes of their names (the exporter's pools number theirs); the
     * example server names its own threads {@code blockscope-serve-*}, so the prefix alone won't do.
     */
    private static final List<String> AGENT_THREADS =
            List.of("blockscope-exporter", "blockscope-live-page", "blockscope-jfr-gc", "blockscope-start");

    private ThreadCpu() {}

    static Part part(String threadName) {
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
    static long[] read(long pid) throws IOException {
        long[] nanos = new long[Part.values().length + 1];
        long live = 0;
        Path process = Path.of("/proc", Long.toString(pid));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path task : tasks) {
                long ticks;
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                    ticks = ticks(Files.readString(task.resolve("stat")));
                } catch (NoSuchFileException ended) {
                    continue; // ended while listed: its time is in the total, counted as ENDED
                }
                nanos[part(name).ordinal()] += ticks * NANOS_PER_TICK;
                live += ticks * NANOS_PER_TICK;
            }
        }
        long total = ticks(Files.readString(process.resolve("stat"))) * NANOS_PER_TICK;
        nanos[Part.ENDED.ordinal()] = Math.max(0, total - live);
        nanos[nanos.length - 1] = Math.max(total, live);
        return nanos;
    }

    /** utime + stime of a {@code stat} line; the name in parentheses may hold spaces and parentheses. */
    static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after the name: state is field 3 of stat(5), utime 14 and stime 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
