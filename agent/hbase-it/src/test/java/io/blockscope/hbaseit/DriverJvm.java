package io.blockscope.hbaseit;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A driver program in its own JVM, with one HBase release on its class path and, optionally, the
 * agent attached. Speaks the drivers' checkpoint protocol: {@link #await} a checkpoint line on
 * stdout, look around (scrape the agent), then {@link #proceed}. Everything the JVM prints is kept
 * for assertion messages. Closing it kills the JVM if it is still running.
 */
final class DriverJvm implements AutoCloseable {

    private static final String CHECKPOINT = "blockscope-driver checkpoint=";
    private static final Pattern METRICS_URL = Pattern.compile("metrics at (https?://\\S+/metrics)");
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final Writer stdin;
    private final List<String> output = new ArrayList<>();
    private final String description;
    /** The endpoint's TLS and credentials, or null for plain HTTP. */
    private final SecuredEndpoint secured;
    /** Output streams still being read; guarded by {@code output}. */
    private int openPumps = 2;

    private DriverJvm(Process process, String description, SecuredEndpoint secured) {
        this.process = process;
        this.description = description;
        this.secured = secured;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(process.getInputStream(), "stdout");
        pump(process.getErrorStream(), "stderr");
    }

    static Builder of(String driverClass) {
        return new Builder(driverClass);
    }

    /** Waits for checkpoint {@code name}; fails with the JVM's output if it ends or stalls first. */
    Checkpoint await(String name) {
        String prefix = CHECKPOINT + name + " ";
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        synchronized (output) {
            while (true) {
                for (String line : output) {
                    if (line.startsWith("stdout: " + prefix)) {
                        return Checkpoint.parse(line.substring("stdout: ".length()));
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && drained())) {
                    throw new AssertionError(description + " never reached checkpoint " + name
                            + (process.isAlive()
                                    ? " within " + STEP_TIMEOUT.toSeconds() + " s"
                                    : " (exited " + process.exitValue() + ")")
                            + "; its output:\n" + log());
                }
                try {
                    output.wait(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 200));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted waiting for " + name, e);
                }
            }
        }
    }

    /** Lets the driver go on past its current checkpoint. */
    void proceed() {
        try {
            stdin.write("go\n");
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError(description + " no longer reads its input; its output:\n" + log(), e);
        }
    }

    /** Proceeds past the last checkpoint and returns the exit code. */
    int finish() {
        proceed();
        try {
            stdin.close();
            if (!process.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError(description + " did not exit; its output:\n" + log());
            }
            Thread.sleep(50); // let the pumps take the last lines
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    /**
     * The agent's scrape endpoint, as its startup line announced it; waits up to 10 s for the line
     * (the driver's checkpoint follows the agent's start, but stderr is pumped apart from stdout).
     */
    URI metricsUri() {
        long began = System.nanoTime();
        Optional<Matcher> line = agentLine(METRICS_URL);
        while (line.isEmpty() && System.nanoTime() - began < 10_000_000_000L) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            line = agentLine(METRICS_URL);
        }
        return line.map(m -> URI.create(m.group(1)))
                .orElseThrow(() -> new AssertionError("the agent announced no metrics URL; output:\n" + log()));
    }

    /** One scrape of the agent's endpoint, over TLS with credentials when it is secured. */
    Scrape scrape() {
        return Scrape.of(metricsUri(), secured);
    }

    /** The first [blockscope] line matching {@code pattern}. */
    Optional<Matcher> agentLine(Pattern pattern) {
        for (String line : lines()) {
            Matcher m = pattern.matcher(line);
            if (line.contains("[blockscope]") && m.find()) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    List<String> lines() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    String log() {
        return String.join("\n", lines());
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

    /** Called with the output lock held. */
    private boolean drained() {
        return openPumps == 0;
    }

    private void pump(InputStream stream, String name) {
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            synchronized (output) {
                                output.add(name + ": " + line);
                                output.notifyAll();
                            }
                        }
                    } catch (IOException ignored) {
                        // the JVM is gone
                    } finally {
                        synchronized (output) {
                            openPumps--;
                            output.notifyAll();
                        }
                    }
                },
                "driver-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    static final class Builder {
        private final String driverClass;
        private HBaseInstall hbase;
        private boolean withoutServer;
        private String agentOptions;
        private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        private SecuredEndpoint secured;
        private String hostPort = "127.0.0.1:0";
        private final List<String> jvmOptions = new ArrayList<>();

        private Builder(String driverClass) {
            this.driverClass = "io.blockscope.hbaseit.driver." + driverClass;
        }

        Builder hbase(HBaseInstall install) {
            this.hbase = install;
            return this;
        }

        /** Leaves hbase-server off the class path (hbase-common and the rest stay). */
        Builder withoutServer() {
            this.withoutServer = true;
            return this;
        }

        /** Attaches the agent with {@code 127.0.0.1:0} (an ephemeral port) and these extra options. */
        Builder agent(String options) {
            this.agentOptions = options;
            return this;
        }

        /**
         * Empty (the agent chooses its profile automatically, as on a real RegionServer) unless
         * {@code -Dblockscope.hbaseit.profile=FILE} points the agent at a profile being edited.
         */
        private static String profileOption() {
            String profile = System.getProperty("blockscope.hbaseit.profile", "");
            return profile.isBlank() ? "" : ",profile=" + profile;
        }

        /** The JVM to run the driver on (default: the one running the tests). */
        Builder java(Path executable) {
            this.java = executable;
            return this;
        }

        /** One more option for the driver's JVM. */
        Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /** The agent's [host:]port (default {@code 127.0.0.1:0}, an ephemeral port). */
        Builder hostPort(String value) {
            this.hostPort = value;
            return this;
        }

        /** Serves the agent's metrics over TLS with basic auth ({@link #scrape()} then uses both). */
        Builder secured(SecuredEndpoint endpoint) {
            this.secured = endpoint;
            return this;
        }

        DriverJvm start() {
            List<String> command = new ArrayList<>();
            command.add(java.toString());
            command.add("-Xmx256m");
            command.add("-XX:MaxDirectMemorySize=256m");
            command.addAll(hbase.jvmFlags());
            command.addAll(jvmOptions);
            if (agentOptions != null) {
                command.add("-javaagent:" + AgentJar.locate() + "=" + hostPort + profileOption()
                        + (agentOptions.isEmpty() ? "" : "," + agentOptions)
                        + (secured == null ? "" : "," + secured.agentOptions()));
            }
            command.add("-cp");
            command.add(HBaseInstall.required("blockscope.drivers")
                    + File.pathSeparator
                    + (withoutServer ? hbase.classPathWithoutServer() : hbase.classPath()));
            command.add(driverClass);
            String description = driverClass.substring(driverClass.lastIndexOf('.') + 1) + " on " + hbase
                    + (withoutServer ? " without hbase-server" : "") + (agentOptions != null ? " with the agent" : "")
                    + " on " + java;
            try {
                return new DriverJvm(new ProcessBuilder(command).start(), description, secured);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + command, e);
            }
        }
    }
}
