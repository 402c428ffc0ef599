package io.blockscope.server.pe;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.jspecify.annotations.Nullable;

/**
 * The JVM whose agent cost is measured, seen through JMX: this JVM (in-process PE), or a server on
 * this machine reached by pid through the attach API's local management agent (local only: the
 * attach API admits the same user on the same host, nothing listens on the network). It reads the
 * process CPU time and the JIT's compilation time, and switches the agent's probes in and out
 * through the probe switch MBean of the diagnostics agent jar (the production jar has none).
 */
final class MeasuredJvm implements AutoCloseable {

    static final String SWITCH_NAME = "io.blockscope:type=ProbeSwitch";
    private static final String HOW_TO = "start the measured JVM with the diagnostics agent jar, which has the switch"
            + " (the production jar has none), e.g. -javaagent:agent/target/blockscope-agent-diagnostics.jar=127.0.0.1:0";

    private final MBeanServerConnection server;
    private final @Nullable JMXConnector connector;
    private final String description;
    private final ObjectName probeSwitch;
    private final ObjectName os;
    private final ObjectName compilation;
    /** Whether the JVM times its JIT; asked once, on first use. */
    private @Nullable Boolean compilationTimed;

    private MeasuredJvm(MBeanServerConnection server, @Nullable JMXConnector connector, String description) {
        this.server = server;
        this.connector = connector;
        this.description = description;
        try {
            this.probeSwitch = new ObjectName(SWITCH_NAME);
            this.os = new ObjectName("java.lang:type=OperatingSystem");
            this.compilation = new ObjectName("java.lang:type=Compilation");
        } catch (MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
    }

    /** This JVM. */
    static MeasuredJvm self() {
        return new MeasuredJvm(java.lang.management.ManagementFactory.getPlatformMBeanServer(), null, "this JVM");
    }

    /**
     * The JVM of process {@code pid} on this machine, through its local management agent. The JMX
     * address comes from that JVM over the attach API (same user, same host), never from input: the
     * RMI lookup BanJNDI warns about only reaches a process this user already controls.
     */
    @SuppressWarnings("BanJNDI")
    static MeasuredJvm attach(long pid) throws IOException {
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (com.sun.tools.attach.AttachNotSupportedException | IOException e) {
            throw new IllegalArgumentException(
                    "--agent-pid " + pid + ": cannot attach to that process (" + e.getMessage()
                            + "); it must be a JVM run by the same user on this machine",
                    e);
        }
        JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
        return new MeasuredJvm(connector.getMBeanServerConnection(), connector, "process " + pid);
    }

    String description() {
        return description;
    }

    /** Every probe of the agent's profile, comma-separated; fails clearly when the switch is absent. */
    String allProbes() throws Exception {
        return (String) attribute("Probes");
    }

    /** The probes installed now, as the agent normalises them ({@code all}, {@code none}, or names). */
    String installed() throws Exception {
        return (String) attribute("Installed");
    }

    /** Installs exactly {@code spec} ({@code all}, {@code none}, or probe names); returns it as the agent reads it back. */
    String install(String spec) throws Exception {
        try {
            server.setAttribute(probeSwitch, new Attribute("Installed", spec));
        } catch (javax.management.RuntimeMBeanException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("the agent refused probes '" + spec + "': " + cause.getMessage(), e);
        }
        return (String) attribute("Installed");
    }

    /** Pauses or resumes the installed probes' recording (no retransformation); returns the state read back. */
    boolean pause(boolean pause) throws Exception {
        attribute("Paused"); // fails clearly when the switch is absent
        server.setAttribute(probeSwitch, new Attribute("Paused", pause));
        return (Boolean) attribute("Paused");
    }

    /** Turns the agent's leak tracking off or on (every probe recording either way); returns the new state. */
    boolean leakTracking(boolean on) throws Exception {
        attribute("LeakTracking"); // fails clearly when the switch is absent
        try {
            server.setAttribute(probeSwitch, new Attribute("LeakTracking", on));
        } catch (javax.management.RuntimeMBeanException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException(
                    "the agent refused leak tracking " + (on ? "on" : "off") + ": " + cause.getMessage(), e);
        }
        return (Boolean) attribute("LeakTracking");
    }

    /** How many times the agent's installed probes changed. */
    long switches() throws Exception {
        return ((Number) attribute("Switches")).longValue();
    }

    /** CPU nanoseconds the process has used (every thread), or -1 when the JVM does not say. */
    long cpuNanos() throws Exception {
        Object value = server.getAttribute(os, "ProcessCpuTime");
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** Milliseconds the JIT has spent compiling, or -1 when the JVM does not say. */
    long compilationMillis() throws Exception {
        if (compilationTimed == null) {
            compilationTimed =
                    Boolean.TRUE.equals(server.getAttribute(compilation, "CompilationTimeMonitoringSupported"));
        }
        if (!compilationTimed) {
            return -1;
        }
        return ((Number) server.getAttribute(compilation, "TotalCompilationTime")).longValue();
    }

    private Object attribute(String name) throws Exception {
        try {
            return server.getAttribute(probeSwitch, name);
        } catch (InstanceNotFoundException e) {
            throw new IllegalArgumentException(
                    "the agent's probe switch (" + SWITCH_NAME + ") is not in " + description + ": " + HOW_TO, e);
        }
    }

    @Override
    public void close() throws IOException {
        if (connector != null) {
            connector.close();
        }
    }
}
