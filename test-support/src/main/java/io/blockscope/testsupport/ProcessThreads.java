package io.blockscope.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A running process's threads, read from its /proc entry (Linux). */
public final class ProcessThreads {

    private ProcessThreads() {}

    /** The thread count of process {@code pid}. */
    public static int count(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring("Threads:".length()).trim());
            }
        }
        throw new IOException("no Threads: line for process " + pid);
    }

    /**
     * The threads of {@code pid} whose names contain none of {@code pools} (from /proc/PID/task/N/comm,
     * names cut at 15 characters): what is left when the thread pools that grow and shrink with load
     * (Jetty's request pool, the JIT's compiler threads) are set aside, so a count that grows is a leak.
     */
    public static int outside(long pid, String... pools) throws IOException {
        int count = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                boolean pooled = false;
                for (String pool : pools) {
                    pooled |= name.contains(pool);
                }
                count += pooled ? 0 : 1;
            }
        }
        return count;
    }
}
