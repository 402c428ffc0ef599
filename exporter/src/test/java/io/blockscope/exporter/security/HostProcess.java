package io.blockscope.exporter.security;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A {@link SecuredHost} JVM: its port, its CPU time, and everything it printed. */
final class HostProcess implements AutoCloseable {

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final StringBuffer err = new StringBuffer();
    private final int port;

    private HostProcess(Process process) throws IOException, InterruptedException {
        this.process = process;
        drain(process.getErrorStream(), line -> err.append(line).append('\n'));
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        int p = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (String line; (line = reader.readLine()) != null; ) {
            synchronized (out) {
                out.add(line);
            }
            if (line.startsWith("exporter port ")) {
                p = Integer.parseInt(line.split(" ")[2]);
            }
            if (line.equals("ready") || System.nanoTime() > deadline) {
                break;
            }
        }
        if (p < 0) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new IOException("the host did not start: " + this);
        }
        port = p;
        drain(process.getInputStream(), line -> {
            synchronized (out) {
                out.add(line);
            }
        });
    }

    /** Starts a host with exporter {@code options} ({@code key=value}) and extra environment variables. */
    static HostProcess start(Map<String, String> environment, List<String> jvmArgs, String... options)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx128m");
        command.add("-XX:+UseSerialGC");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SecuredHost.class.getName());
        command.addAll(List.of(options));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(environment);
        return new HostProcess(pb.start());
    }

    int port() {
        return port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** CPU time (user + system) the whole JVM has used so far. */
    double cpuSeconds() {
        Duration cpu = process.toHandle().info().totalCpuDuration().orElseThrow();
        return cpu.toNanos() / 1e9;
    }

    /** The host's Java thread count, as its own /proc entry tells. */
    int threads() throws IOException {
        for (String line : java.nio.file.Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring("Threads:".length()).trim());
            }
        }
        throw new IOException("no Threads: line for " + process.pid());
    }

    /**
     * The JVM's threads whose names contain none of {@code pools} (from /proc/PID/task/N/comm,
     * names cut at 15 characters): what is left when the thread pools that grow and shrink with load
     * (Jetty's request pool, the JIT's compiler threads) are set aside, so a count that grows is a leak.
     */
    int threadsOutside(String... pools) throws IOException {
        int count = 0;
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
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

    String stdout() {
        synchronized (out) {
            return String.join("\n", out);
        }
    }

    String stderr() {
        return err.toString();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return "--- stdout:\n" + stdout() + "\n--- stderr:\n" + stderr();
    }

    private static void drain(java.io.InputStream stream, java.util.function.Consumer<String> sink) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            sink.accept(line);
                        }
                    } catch (IOException e) {
                        // the process went away
                    }
                },
                "host-drain");
        t.setDaemon(true);
        t.start();
    }
}
