package io.blockscope.hbasers;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

/**
 * A RegionServer JVM run with the diagnostics agent jar, seen through its local management agent
 * (started over the Attach API: same user, same host, no port opened): its process CPU time, the
 * agent's probe switch ({@code io.blockscope:type=ProbeSwitch}) and HBase's own server metrics.
 */
final class RegionServerSwitch implements AutoCloseable {

    private static final String SWITCH = "io.blockscope:type=ProbeSwitch";
    private static final String HBASE_SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";

    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final ObjectName probeSwitch;

    private RegionServerSwitch(JMXConnector connector) throws IOException, JMException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
        this.probeSwitch = new ObjectName(SWITCH);
    }

    /** The JVM of process {@code pid} (see {@link LocalJmx}). */
    static RegionServerSwitch attach(long pid) throws Exception {
        return new RegionServerSwitch(LocalJmx.connect(pid));
    }

    /** CPU nanoseconds the whole process has used (every thread: handlers, flushes, compactions, GC, JIT). */
    long cpuNanos() throws Exception {
        return ((Number) server.getAttribute(new ObjectName("java.lang:type=OperatingSystem"), "ProcessCpuTime"))
                .longValue();
    }

    String probes() throws Exception {
        return (String) server.getAttribute(probeSwitch, "Probes");
    }

    String installed() throws Exception {
        return (String) server.getAttribute(probeSwitch, "Installed");
    }

    /** Installs exactly {@code spec} ({@code all}, {@code none} or probe names); returns it as the agent reads it back. */
    String install(String spec) throws Exception {
        server.setAttribute(probeSwitch, new Attribute("Installed", spec));
        return installed();
    }

    /** Pauses or resumes the installed probes' recording (no retransformation). */
    void pause(boolean paused) throws Exception {
        server.setAttribute(probeSwitch, new Attribute("Paused", paused));
    }

    /**
     * HBase's own counters of {@code names} (-1 for one it does not have now: HBase re-registers its
     * metrics MBeans a few seconds after a region opens).
     */
    Map<String, Long> hbaseMetrics(List<String> names) {
        return ServerGauges.hbaseCounters(server, names);
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
