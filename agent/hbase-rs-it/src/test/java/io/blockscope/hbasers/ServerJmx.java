package io.blockscope.hbasers;

import com.sun.tools.attach.VirtualMachine;
import io.blockscope.hbasers.server.ServerLedger;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

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
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            return new ServerJmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
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

    Map<String, Long> numbers(String mbean) {
        try {
            ObjectName name = new ObjectName(mbean);
            awaitRegistered(name);
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
        } catch (JMException | IOException e) {
            throw new AssertionError("cannot read " + mbean + ": " + e, e);
        }
    }

    /**
     * HBase's metrics system registers its sources a moment after the RegionServer reports for duty:
     * wait (up to a minute) rather than read too early.
     */
    private void awaitRegistered(ObjectName name) throws IOException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!connection.isRegistered(name) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
