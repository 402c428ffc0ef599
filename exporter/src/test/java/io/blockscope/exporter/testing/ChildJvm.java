package io.blockscope.exporter.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running a main class from the test class path, with its stdout collected line by
 * line and its stderr kept for assertions and failure messages. Closing it kills the process.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final StringBuffer err = new StringBuffer();
    private final String description;

    private ChildJvm(Process process, String description) {
        this.process = process;
        this.description = description;
        drain(process.getInputStream(), line -> {
            synchronized (out) {
                out.add(line);
                out.notifyAll();
            }
        });
        drain(process.getErrorStream(), line -> err.append(line).append('\n'));
    }

    /**
     * Starts {@code mainClass} on {@code java} with the test class path, small-heap defaults that
     * suit a shared 2-core machine, then {@code jvmArgs} (which may override them) and {@code args}.
     */
    public static ChildJvm start(Path java, List<String> jvmArgs, Class<?> mainClass, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:ActiveProcessorCount=1");
        command.add("-XX:-UsePerfData");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        String description = java + " " + String.join(" ", jvmArgs) + " " + mainClass.getSimpleName();
        return new ChildJvm(pb.start(), description);
    }

    /** Waits for the first stdout line matching {@code test}; fails with the child's output if none comes. */
    public String awaitLine(Predicate<String> test, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                for (String line : out) {
                    if (test.test(line)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && outputComplete())) {
                    throw new AssertionError("no expected line from " + this);
                }
                out.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 200)));
            }
        }
    }

    /** Waits for the child to exit by itself. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public int exitValue() {
        return process.exitValue();
    }

    public String stderr() {
        return err.toString();
    }

    public List<String> stdout() {
        synchronized (out) {
            return new ArrayList<>(out);
        }
    }

    private boolean outputComplete() {
        try {
            Thread.sleep(100); // let the drain threads read what the dead process left in the pipes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
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
        return description + (process.isAlive() ? " (running)" : " (exited " + process.exitValue() + ")")
                + "\n--- stdout:\n" + String.join("\n", stdout()) + "\n--- stderr:\n" + stderr();
    }

    private static void drain(InputStream stream, java.util.function.Consumer<String> sink) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            sink.accept(line);
                        }
                    } catch (IOException e) {
                        // the process went away: nothing more to read
                    }
                },
                "child-jvm-drain");
        t.setDaemon(true);
        t.start();
    }
}
