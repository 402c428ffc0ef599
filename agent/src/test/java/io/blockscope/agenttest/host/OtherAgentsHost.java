package io.blockscope.agenttest.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * A host for three agents at once (OtherAgentsIT): it drives {@link FakeCache} exactly like {@link
 * CheckoutDriver} (for blockscope's counters), publishes how many lookups it made as an MBean
 * attribute (for the JMX exporter), and runs on a JVM whose runtime metrics the OpenTelemetry agent
 * reads. Prints {@code ready port=N}, then returns from main, normally, on the first line of stdin.
 */
public final class OtherAgentsHost {

    /** The MBean the JMX exporter serves: a value the test knows. */
    public interface WorkMBean {
        long getLookups();
    }

    public static void main(String[] args) throws Exception {
        int lookups = Integer.parseInt(args[0]);
        FakeCache cache = new FakeCache();
        for (int key = 0; key < lookups; key++) {
            FakeCache.FakeBlock block = cache.lookup(key);
            if (block != null) {
                cache.releaseBlock(block);
            }
            cache.releaseBlock(cache.read());
        }
        FakeCache.FakeBlock kept = cache.lookup(2);
        WorkMBean work = () -> lookups;
        ManagementFactory.getPlatformMBeanServer()
                .registerMBean(
                        new StandardMBean(work, WorkMBean.class),
                        new ObjectName("io.blockscope.agenttest:type=OtherAgentsHost"));
        System.out.println("ready port=" + AgentState.port() + " kept=" + kept.shared());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        in.readLine();
        System.out.println("host done");
    }
}
