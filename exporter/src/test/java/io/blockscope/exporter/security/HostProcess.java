package io.blockscope.exporter.security;

import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import io.blockscope.testsupport.ProcessThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A {@link SecuredHost} JVM: its port, its CPU time, and everything it printed. */
final class HostProcess implements AutoCloseable {

    private static final String PORT_LINE = "exporter port ";

    private final ChildProcess process;
    private final int port;

    private HostProcess(ChildProcess process) throws InterruptedException {
        this.process = process;
        try {
            process.awaitLine(l -> l.equals("ready"), Duration.ofSeconds(60));
            String line = process.awaitLine(l -> l.startsWith(PORT_LINE), Duration.ZERO);
            this.port = Integer.parseInt(line.split(" ")[2]);
        } catch (AssertionError e) {
            process.close();
            throw new AssertionError("the host did not start: " + e.getMessage(), e);
        }
    }

    /** Starts a host with exporter {@code options} ({@code key=value}) and extra environment variables. */
    static HostProcess start(Map<String, String> environment, List<String> jvmArgs, String... options)
            throws IOException, InterruptedException {
        JavaCommand command = JavaCommand.onTestJvm()
                .option("-Xmx128m")
                .option("-XX:+UseSerialGC")
                .options(jvmArgs)
                .classPath(System.getProperty("java.class.path"))
                .main(SecuredHost.class.getName(), options);
        environment.forEach(command::env);
        return new HostProcess(command.start());
    }

    int port() {
        return port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** CPU time (user + system) the whole JVM has used so far. */
    double cpuSeconds() {
        Duration cpu = process.handle().info().totalCpuDuration().orElseThrow();
        return cpu.toNanos() / 1e9;
    }

    /** The host's threads outside the named pools: see {@link ProcessThreads#outside}. */
    int threadsOutside(String... pools) throws IOException {
        return ProcessThreads.outside(process.pid(), pools);
    }

    String stdout() {
        return String.join("\n", process.out());
    }

    String stderr() {
        return String.join("\n", process.err());
    }

    @Override
    public void close() {
        process.close();
    }

    @Override
    public String toString() {
        return process.transcript();
    }
}
