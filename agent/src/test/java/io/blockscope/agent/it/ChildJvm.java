package io.blockscope.agent.it;

import io.blockscope.exporter.testing.TestJdks;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real child JVM for integration tests: the built agent jar, a class path made of this module's
 * test classes (and chosen entries of the test class path), stdout and stderr collected line by
 * line, stdin for commands. {@link #close()} kills it if it is still running.
 */
final class ChildJvm implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final Writer stdin;
    private final String description;

    private ChildJvm(List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(k -> k.startsWith("BLOCKSCOPE_"));
        builder.environment().putAll(environment);
        this.description = String.join(" ", command);
        this.process = builder.start();
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), out);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), err);
    }

    /** The agent jar the package phase built (failsafe passes its path). */
    static Path agentJar() {
        String jar = System.getProperty("blockscope.agent.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("agent jar not found at " + jar + ": run the integration tests with"
                    + " 'mvn verify' (failsafe, after package) so blockscope.agent.jar points at the built jar");
        }
        return Path.of(jar);
    }

    /** The diagnostics agent jar (the agent plus the probe switch) the package phase built. */
    static Path diagnosticsJar() {
        String jar = System.getProperty("blockscope.diagnostics.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("diagnostics agent jar not found at " + jar + ": run the integration tests"
                    + " with 'mvn verify' (failsafe, after package) so blockscope.diagnostics.jar points at it");
        }
        return Path.of(jar);
    }

    /** The java of the JVM running the tests. */
    static String java17() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** JDK 25's java from {@code BLOCKSCOPE_TEST_JDKS}; skips the test (saying how to get it) when not named. */
    static String java25() {
        return TestJdks.require(25).toString();
    }

    /**
     * The test class path entries a child needs: this module's test classes, and the entries whose
     * path contains one of {@code artifacts} (e.g. the example server). Never the agent's own
     * classes or its unrelocated dependencies: the child gets those only from the agent jar.
     */
    static String classPath(String... artifacts) {
        String all = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = new ArrayList<>();
        for (String entry : all.split(File.pathSeparator)) {
            if (entry.endsWith("test-classes") || entry.endsWith("test-classes/")) {
                entries.add(entry);
                continue;
            }
            for (String artifact : artifacts) {
                if (entry.contains(artifact)) {
                    entries.add(entry);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    static Builder builder(String java) {
        return new Builder(java);
    }

    static final class Builder {
        private final List<String> command = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final Map<String, String> environment = new java.util.HashMap<>();
        private String agentArgument;
        private boolean agent;
        private boolean diagnostics;
        private String classPath;

        private Builder(String java) {
            command.add(java);
        }

        Builder agent(String argument) {
            this.agent = true;
            this.agentArgument = argument;
            return this;
        }

        /** Like {@link #agent}, with the diagnostics jar instead of the production one. */
        Builder diagnosticsAgent(String argument) {
            this.diagnostics = true;
            return agent(argument);
        }

        Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        Builder env(String key, String value) {
            environment.put(key, value);
            return this;
        }

        Builder classPath(String classPath) {
            this.classPath = classPath;
            return this;
        }

        ChildJvm start(String mainClass, String... args) throws IOException {
            List<String> full = new ArrayList<>(command);
            full.add("-Xmx256m");
            full.add("-XX:+UseSerialGC");
            full.add("-Xshare:off"); // no "Sharing is only supported for boot loader classes" noise
            full.addAll(jvmOptions);
            if (agent) {
                full.add("-javaagent:" + (diagnostics ? diagnosticsJar() : agentJar())
                        + (agentArgument == null ? "" : "=" + agentArgument));
            }
            if (classPath != null) {
                full.add("-cp");
                full.add(classPath);
            }
            full.add(mainClass);
            full.addAll(List.of(args));
            return new ChildJvm(full, environment);
        }
    }

    private static void pump(BufferedReader reader, List<String> lines) {
        Thread thread = new Thread(
                () -> {
                    try (reader) {
                        for (String line; (line = reader.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("<<read failed: " + e + ">>");
                    }
                },
                "child-output");
        thread.setDaemon(true);
        thread.start();
    }

    long pid() {
        return process.pid();
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Sends a command and waits for its {@code ok <command>} line. */
    void command(String line) throws Exception {
        int before = out.size();
        send(line);
        String verb = line.split(" ")[0];
        awaitOut(l -> l.equals("ok " + verb), before);
    }

    /** Waits for a stdout line matching {@code pattern}; returns its first group (or the line). */
    String awaitOut(Pattern pattern) throws Exception {
        String line = awaitOut(l -> pattern.matcher(l).find(), 0);
        Matcher m = pattern.matcher(line);
        m.find();
        return m.groupCount() > 0 ? m.group(1) : line;
    }

    /** Waits for a stderr line matching {@code pattern}; returns its first group (or the line). */
    String awaitErr(Pattern pattern) throws Exception {
        String line = await(err, l -> pattern.matcher(l).find(), 0);
        Matcher m = pattern.matcher(line);
        m.find();
        return m.groupCount() > 0 ? m.group(1) : line;
    }

    private String awaitOut(Predicate<String> test, int from) throws Exception {
        return await(out, test, from);
    }

    private String await(List<String> lines, Predicate<String> test, int from) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (int i = from; i < lines.size(); i++) {
                if (test.test(lines.get(i))) {
                    return lines.get(i);
                }
            }
            if (!process.isAlive() && lines == out) {
                Thread.sleep(100); // let the pump drain
                for (int i = from; i < lines.size(); i++) {
                    if (test.test(lines.get(i))) {
                        return lines.get(i);
                    }
                }
                throw new AssertionError(
                        "child exited (" + process.exitValue() + ") before the expected line\n" + transcript());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("timed out waiting for a line\n" + transcript());
    }

    /** Waits for the child to exit and returns its status. */
    int waitFor() throws Exception {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("child did not exit in time\n" + transcript());
        }
        Thread.sleep(100);
        return process.exitValue();
    }

    List<String> out() {
        return out;
    }

    List<String> err() {
        return err;
    }

    /** Lines on stderr that come from the agent. */
    List<String> agentLines() {
        return err.stream().filter(l -> l.startsWith("[blockscope]")).toList();
    }

    String transcript() {
        return "command: " + description + "\n--- stdout\n" + String.join("\n", out) + "\n--- stderr\n"
                + String.join("\n", err);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
