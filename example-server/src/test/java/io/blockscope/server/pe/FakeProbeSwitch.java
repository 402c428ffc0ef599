package io.blockscope.server.pe;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * The diagnostics agent jar's probe switch as PE sees it over JMX (same name and attributes), registered in this
 * JVM's platform MBean server: it records every install it is asked for, so a test can check the
 * order of PE's windows without an agent.
 */
public final class FakeProbeSwitch implements AutoCloseable {

    /** The agent's MBean interface, attribute for attribute. */
    public interface SwitchMBean {
        String getInstalled();

        void setInstalled(String probes);

        long getSwitches();

        String getProbes();

        boolean isPaused();

        void setPaused(boolean paused);
    }

    private static final Set<String> PROBES = Set.of("block-get", "block-return", "cell-copy");

    private final List<String> installs = new ArrayList<>();
    private final ObjectName name;
    private String installed = "all";
    private long switches;
    private boolean paused;

    private FakeProbeSwitch() throws Exception {
        name = new ObjectName(MeasuredJvm.SWITCH_NAME);
        SwitchMBean bean = new SwitchMBean() {
            @Override
            public synchronized String getInstalled() {
                return installed;
            }

            @Override
            public synchronized void setInstalled(String probes) {
                for (String probe : probes.split(",")) {
                    if (!probe.equals("all") && !probe.equals("none") && !PROBES.contains(probe)) {
                        throw new IllegalArgumentException("unknown probe " + probe);
                    }
                }
                installs.add(probes);
                if (!probes.equals(installed)) {
                    switches++;
                }
                installed = probes;
            }

            @Override
            public synchronized long getSwitches() {
                return switches;
            }

            @Override
            public synchronized boolean isPaused() {
                return paused;
            }

            @Override
            public synchronized void setPaused(boolean pause) {
                installs.add(pause ? "pause" : "resume");
                paused = pause;
            }

            @Override
            public String getProbes() {
                return "block-get,block-return,cell-copy";
            }
        };
        ManagementFactory.getPlatformMBeanServer().registerMBean(new StandardMBean(bean, SwitchMBean.class), name);
    }

    static FakeProbeSwitch register() throws Exception {
        return new FakeProbeSwitch();
    }

    synchronized List<String> installs() {
        return List.copyOf(installs);
    }

    @Override
    public void close() throws Exception {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    }
}
