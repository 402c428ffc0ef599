package io.blockscope.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process a test started: stdout and stderr read line by line as they come (and copied to a log file
 * when one is given), lines awaited with a deadline, stdin for commands, and a sure stop (its child
 * processes too). Failures carry the command and everything it printed.
 */
public final class ChildProcess implements AutoCloseable {

    /** Which output a line came from. */
    public enum Stream {
        OUT,
        ERR,
        /** Either: stdout's lines, then stderr's. */
        ANY
    }

    private final Process process;
    private final String description;
    private final Writer stdin;
    /** Guarded by itself; notified on every line and when a stream ends. */
    private final List<String> out = new ArrayList<>();

    private final List<String> err = new ArrayList<>();
    private final PrintWriter log;
    private int openStreams = 2;

    private ChildProcess(Process process, String description, Path logFile) throws IOException {
        this.process = process;
        this.description = description;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.log = logFile == null ? null : new PrintWriter(Files.newBufferedWriter(logFile), true);
        pump(process.getInputStream(), out, "out");
        pump(process.getErrorStream(), err, "err");
    }

    /** Starts {@code command} with these environment changes (a null value removes the variable). */
    public static ChildProcess start(List<String> command, Map<String, String> environment, Path logFile)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        environment.forEach((key, value) -> {
            if (value == null) {
                builder.environment().remove(key);
            } else {
                builder.environment().put(key, value);
            }
        });
        return new ChildProcess(builder.start(), String.join(" ", command), logFile);
    }

    public static ChildProcess start(List<String> command) throws IOException {
        return start(command, Map.of(), null);
    }

    /**
     * The first line of {@code stream}, from index {@code from} on, that passes {@code test}; fails with
     * the transcript when the process ends without printing it or {@code timeout} passes.
     */
    public String awaitLine(Stream stream, int from, Predicate<String> test, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                for (List<String> lines : stream == Stream.ANY ? List.of(out, err) : List.of(lines(stream))) {
                    for (int i = from; i < lines.size(); i++) {
                        if (test.test(lines.get(i))) {
                            return lines.get(i);
                        }
                    }
                }
                long left = deadline - System.nanoTime();
                if (openStreams == 0) {
                    throw new AssertionError(
                            "the process ended (" + exitText() + ") before the expected line\n" + transcript());
                }
                if (left <= 0) {
                    throw new AssertionError("no expected line within " + timeout.toSeconds() + " s\n" + transcript());
                }
                out.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 200)));
            }
        }
    }

    /** The match of the first line of either stream that {@code pattern} finds; fails as {@link #awaitLine} does. */
    public Matcher awaitMatch(Pattern pattern, Duration timeout) throws InterruptedException {
        Matcher m =
                pattern.matcher(awaitLine(Stream.ANY, 0, l -> pattern.matcher(l).find(), timeout));
        m.find();
        return m;
    }

    /** {@link #awaitLine(Stream, int, Predicate, Duration)} on stdout, from its first line. */
    public String awaitLine(Predicate<String> test, Duration timeout) throws InterruptedException {
        return awaitLine(Stream.OUT, 0, test, timeout);
    }

    /** Writes one line to its stdin. */
    public void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("the process no longer reads its input\n" + transcript(), e);
        }
    }

    /** Closes its stdin: a process that reads commands sees the end. */
    public void closeInput() {
        try {
            stdin.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for it to exit by itself and for its output to be read; its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + timeout.toSeconds() + " s\n" + transcript());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        synchronized (out) {
            while (openStreams > 0 && System.nanoTime() < deadline) {
                out.wait(100);
            }
        }
        return process.exitValue();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** Its stdout lines so far. */
    public List<String> out() {
        synchronized (out) {
            return List.copyOf(out);
        }
    }

    /** Its stderr lines so far. */
    public List<String> err() {
        synchronized (out) {
            return List.copyOf(err);
        }
    }

    /** The last {@code count} lines of stdout and of stderr, for failure messages. */
    public String tail(int count) {
        List<String> out = out();
        List<String> err = err();
        return "--- stdout (last lines)\n" + String.join("\n", out.subList(Math.max(0, out.size() - count), out.size()))
                + "\n--- stderr (last lines)\n"
                + String.join("\n", err.subList(Math.max(0, err.size() - count), err.size()));
    }

    /** The command, its state and everything it printed, for failure messages. */
    public String transcript() {
        return "command: " + description + " (" + (process.isAlive() ? "running" : exitText()) + ")\n--- stdout\n"
                + String.join("\n", out()) + "\n--- stderr\n" + String.join("\n", err());
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return transcript();
    }

    private List<String> lines(Stream stream) {
        return stream == Stream.OUT ? out : err;
    }

    private String exitText() {
        return process.isAlive() ? "running" : "exit code " + process.exitValue();
    }

    private void pump(InputStream stream, List<String> lines, String name) {
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            if (log != null) {
                                log.println(line);
                            }
                            synchronized (out) {
                                lines.add(line);
                                out.notifyAll();
                            }
                        }
                    } catch (IOException e) {
                        // the process is gone: nothing more to read
                    } finally {
                        synchronized (out) {
                            openStreams--;
                            out.notifyAll();
                        }
                    }
                },
                "child-" + name + "-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }
}
