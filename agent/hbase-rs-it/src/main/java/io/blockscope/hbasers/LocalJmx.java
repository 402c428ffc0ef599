package io.blockscope.hbasers;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** JMX into a JVM on this machine, by pid, through the attach API's local management agent. */
final class LocalJmx {

    private LocalJmx() {}

    /**
     * A connector to the JVM of process {@code pid}. The JMX address comes from that JVM over the
     * attach API (same user, same host), never from input: the RMI lookup only reaches a process this
     * user already controls.
     */
    @SuppressWarnings("BanJNDI")
    static JMXConnector connect(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try {
            return JMXConnectorFactory.connect(new JMXServiceURL(address));
        } catch (IOException e) {
            throw new IOException("JMX at " + address + " of process " + pid + ": " + e.getMessage(), e);
        }
    }
}
