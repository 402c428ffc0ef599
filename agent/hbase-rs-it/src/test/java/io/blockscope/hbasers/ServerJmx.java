package io.blockscope.hbasers;

import io.blockscope.hbasers.server.ServerLedger;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

/**
 * HBase's own view: the RegionServer's metrics MBeans ({@code Hadoop:service=HBase,name=RegionServer,
 * sub=Server}) and the test's {@link ServerLedger}, read through the JVM's local management agent
 * (started over the Attach API, so the server opens no JMX port and its info server stays off).
 */
final class ServerJmx implements AutoCloseable {

    static final String SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";

    private final JMXConnector connector;
    private final MBeanServerConnection connection;

    private ServerJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.connection = connector.getMBeanServerConnection();
    }

    static ServerJmx connect(long pid) {
        try {
            return new ServerJmx(LocalJmx.connect(pid));
        } catch (Exception e) {
            throw new AssertionError("cannot open JMX on the RegionServer " + pid + ": " + e, e);
        }
    }

    /** Every numeric attribute of the RegionServer's {@code Server} metrics, by name. */
    Map<String, Long> serverMetrics() {
        return numbers(SERVER);
    }

    /** The server JVM's {@code java.specification.version}. */
    String runtimeVersion() {
        try {
            return (String) connection.getAttribute(new ObjectName("java.lang:type=Runtime"), "SpecVersion");
        } catch (JMException | IOException e) {
            throw new AssertionError("cannot read the RegionServer's runtime version: " + e, e);
        }
    }

    long ledger(String attribute) {
        try {
            return ((Number) connection.getAttribute(new ObjectName(ServerLedger.NAME), attribute)).longValue();
        } catch (JMException | IOException e) {
            throw new AssertionError("cannot read " + ServerLedger.NAME + " " + attribute + ": " + e, e);
        }
    }

    /**
     * Every numeric attribute of {@code mbean}. HBase's {@code JmxCacheBuster} stops and restarts the
     * metrics system a few seconds after a region opens or closes, which takes every metrics MBean
     * away for a moment: a read that falls in that gap is tried again (for up to a minute).
     */
    Map<String, Long> numbers(String mbean) {
        ObjectName name;
        try {
            name = new ObjectName(mbean);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(mbean, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                awaitRegistered(name, deadline);
                return read(name);
            } catch (InstanceNotFoundException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("cannot read " + mbean + " (not registered for 60 s): " + e, e);
                }
            } catch (JMException | IOException e) {
                throw new AssertionError("cannot read " + mbean + ": " + e, e);
            }
        }
    }

    private Map<String, Long> read(ObjectName name) throws JMException, IOException {
        MBeanAttributeInfo[] infos = connection.getMBeanInfo(name).getAttributes();
        String[] names = new String[infos.length];
        for (int i = 0; i < infos.length; i++) {
            names[i] = infos[i].getName();
        }
        Map<String, Long> values = new TreeMap<>();
        for (Attribute attribute : connection.getAttributes(name, names).asList()) {
            if (attribute.getValue() instanceof Number) {
                values.put(attribute.getName(), ((Number) attribute.getValue()).longValue());
            }
        }
        return values;
    }

    /**
     * HBase's metrics system registers its sources a moment after the RegionServer reports for duty
     * (and again after each restart by the cache buster): wait rather than read too early.
     */
    private void awaitRegistered(ObjectName name, long deadline) throws IOException {
        while (!connection.isRegistered(name) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + name, e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
