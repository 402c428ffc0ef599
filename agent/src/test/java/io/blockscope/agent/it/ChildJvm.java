package io.blockscope.agent.it;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.AgentJar;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    private final ChildProcess process;

    private ChildJvm(ChildProcess process) {
        this.process = process;
    }

    /** The agent jar the package phase built (failsafe passes its path). */
    static Path agentJar() {
        return AgentJar.path();
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
        return JavaCommand.testJava().toString();
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
        List<String> entries = new ArrayList<>();
        for (String entry : JavaCommand.testClassPath().split(File.pathSeparator)) {
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
        private final JavaCommand command;
        private final List<String> jvmOptions = new ArrayList<>();
        private String agentArgument;
        private boolean agent;
        private boolean diagnostics;

        private Builder(String java) {
            // Children see only the BLOCKSCOPE_ variables a test gives them, never the build's.
            command = JavaCommand.on(Path.of(java)).withoutEnv("BLOCKSCOPE_");
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
            command.env(key, value);
            return this;
        }

        Builder classPath(String classPath) {
            command.classPath(classPath);
            return this;
        }

        ChildJvm start(String mainClass, String... args) throws IOException {
            command.option("-Xmx256m")
                    .option("-XX:+UseSerialGC")
                    .option("-Xshare:off") // no "Sharing is only supported for boot loader classes" noise
                    .options(jvmOptions);
            if (agent) {
                if (diagnostics) {
                    command.option(
                            "-javaagent:" + diagnosticsJar() + (agentArgument == null ? "" : "=" + agentArgument));
                } else {
                    command.agent(agentArgument);
                }
            }
            return new ChildJvm(command.main(mainClass, args).start());
        }
    }

    long pid() {
        return process.pid();
    }

    void send(String line) {
        process.send(line);
    }

    /** Sends a command and waits for its {@code ok <command>} line. */
    void command(String line) throws Exception {
        int before = process.out().size();
        send(line);
        String verb = line.split(" ")[0];
        process.awaitLine(ChildProcess.Stream.OUT, before, l -> l.equals("ok " + verb), TIMEOUT);
    }

    /** Waits for a stdout line matching {@code pattern}; returns its first group (or the line). */
    String awaitOut(Pattern pattern) throws Exception {
        return firstGroup(pattern, ChildProcess.Stream.OUT);
    }

    /** Waits for a stderr line matching {@code pattern}; returns its first group (or the line). */
    String awaitErr(Pattern pattern) throws Exception {
        return firstGroup(pattern, ChildProcess.Stream.ERR);
    }

    private String firstGroup(Pattern pattern, ChildProcess.Stream stream) throws InterruptedException {
        Predicate<String> matches = l -> pattern.matcher(l).find();
        String line = process.awaitLine(stream, 0, matches, TIMEOUT);
        Matcher m = pattern.matcher(line);
        m.find();
        return m.groupCount() > 0 ? m.group(1) : line;
    }

    /** Waits for the child to exit and returns its status. */
    int waitFor() throws Exception {
        return process.awaitExit(TIMEOUT);
    }

    List<String> out() {
        return process.out();
    }

    List<String> err() {
        return process.err();
    }

    /** Lines on stderr that come from the agent. */
    List<String> agentLines() {
        return err().stream().filter(l -> l.startsWith("[blockscope]")).toList();
    }

    String transcript() {
        return process.transcript();
    }

    @Override
    public void close() {
        process.close();
    }
}
