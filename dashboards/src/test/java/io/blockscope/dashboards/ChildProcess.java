package io.blockscope.dashboards;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A process started by a test: output copied to a log file, one awaited line, and a sure stop. */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final CompletableFuture<Matcher> awaited = new CompletableFuture<>();

    private ChildProcess(String name, Process process, Path log, Pattern awaitedLine) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread pump = new Thread(() -> pump(awaitedLine), name + "-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@code command}; output goes to {@code log}; the first line matching {@code awaitedLine} (may be null) is kept. */
    static ChildProcess start(String name, List<String> command, Path log, Pattern awaitedLine) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        return new ChildProcess(name, process, log, awaitedLine);
    }

    /** The match of the awaited line; fails with the log's tail if the process dies or time runs out first. */
    Matcher awaitLine(Duration timeout) throws InterruptedException {
        try {
            return awaited.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException(
                    name + " did not print the expected line in " + timeout.toSeconds() + " s (alive: "
                            + process.isAlive() + "):\n" + tail(),
                    e);
        }
    }

    /** Waits for a normal exit; returns the exit code, or fails with the log's tail on timeout. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " still running after " + timeout.toSeconds() + " s:\n" + tail());
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The first line logged so far that matches {@code pattern}, waiting for one up to {@code timeout}. */
    Matcher awaitLogged(Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (String line : lines()) {
                Matcher m = pattern.matcher(line);
                if (m.find()) {
                    return m;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + " did not log " + pattern + " in " + timeout.toSeconds() + " s:\n" + tail());
            }
            Thread.sleep(100);
        }
    }

    String tail() {
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            return List.of("(no log: " + e + ")");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void pump(Pattern awaitedLine) {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
                if (awaitedLine != null && !awaited.isDone()) {
                    Matcher m = awaitedLine.matcher(line);
                    if (m.find()) {
                        awaited.complete(m);
                    }
                }
            }
        } catch (IOException e) {
            awaited.completeExceptionally(e);
        }
        awaited.completeExceptionally(new IllegalStateException(name + " ended"));
    }
}
