package io.blockscope.hbaseit;

import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import io.blockscope.testsupport.Scrape;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A driver program in its own JVM, with one HBase release on its class path and, optionally, the
 * agent attached. Speaks the drivers' checkpoint protocol: {@link #await} a checkpoint line on
 * stdout, look around (scrape the agent), then {@link #proceed}. Everything the JVM prints is kept
 * for assertion messages. Closing it kills the JVM if it is still running. {@code secured}: the
 * endpoint's TLS and credentials, or null for plain HTTP.
 */
record DriverJvm(ChildProcess process, String description, SecuredEndpoint secured) implements AutoCloseable {

    private static final String CHECKPOINT = "blockscope-driver checkpoint=";
    private static final Pattern METRICS_URL = Pattern.compile("metrics at (https?://\\S+/metrics)");
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);

    static Builder of(String driverClass) {
        return new Builder(driverClass);
    }

    /** Waits for checkpoint {@code name}; fails with the JVM's output if it ends or stalls first. */
    Checkpoint await(String name) {
        String prefix = CHECKPOINT + name + " ";
        try {
            return Checkpoint.parse(process.awaitLine(l -> l.startsWith(prefix), STEP_TIMEOUT));
        } catch (AssertionError e) {
            throw new AssertionError(description + " never reached checkpoint " + name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name, e);
        }
    }

    /** Lets the driver go on past its current checkpoint. */
    void proceed() {
        process.send("go");
    }

    /** Proceeds past the last checkpoint and returns the exit code. */
    int finish() {
        proceed();
        process.closeInput();
        try {
            return process.awaitExit(STEP_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    long pid() {
        return process.pid();
    }

    /**
     * The agent's scrape endpoint, as its startup line announced it; waits up to 10 s for the line
     * (the driver's checkpoint follows the agent's start, but stderr is read apart from stdout).
     */
    URI metricsUri() {
        try {
            String line = process.awaitLine(
                    ChildProcess.Stream.ERR,
                    0,
                    l -> l.contains("[blockscope]") && METRICS_URL.matcher(l).find(),
                    Duration.ofSeconds(10));
            Matcher m = METRICS_URL.matcher(line);
            m.find();
            return URI.create(m.group(1));
        } catch (AssertionError e) {
            throw new AssertionError("the agent announced no metrics URL: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** One scrape of the agent's endpoint, over TLS with credentials when it is secured. */
    Scrape scrape() {
        return secured == null
                ? Scrape.of(metricsUri())
                : Scrape.of(metricsUri(), secured.client(), secured.authorization());
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

    /** Everything it printed so far: stdout's lines, then stderr's. */
    List<String> lines() {
        List<String> lines = new ArrayList<>(process.out());
        lines.addAll(process.err());
        return lines;
    }

    String log() {
        return description + "\n" + process.transcript();
    }

    @Override
    public void close() {
        process.close();
    }

    static final class Builder {
        private final String driverClass;
        private HBaseInstall hbase;
        private boolean withoutServer;
        private String agentOptions;
        private Path java = JavaCommand.testJava();
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
            JavaCommand command = JavaCommand.on(java)
                    .option("-Xmx256m")
                    .option("-XX:MaxDirectMemorySize=256m")
                    .options(hbase.jvmFlags())
                    .options(jvmOptions);
            if (agentOptions != null) {
                command.agent(hostPort
                        + profileOption()
                        + (agentOptions.isEmpty() ? "" : "," + agentOptions)
                        + (secured == null ? "" : "," + secured.agentOptions()));
            }
            command.classPath(HBaseInstall.required("blockscope.drivers")
                            + File.pathSeparator
                            + (withoutServer ? hbase.classPathWithoutServer() : hbase.classPath()))
                    .main(driverClass);
            String description = driverClass.substring(driverClass.lastIndexOf('.') + 1) + " on " + hbase
                    + (withoutServer ? " without hbase-server" : "") + (agentOptions != null ? " with the agent" : "")
                    + " on " + java;
            try {
                return new DriverJvm(command.start(), description, secured);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + command.command(), e);
            }
        }
    }
}
