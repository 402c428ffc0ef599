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

        boolean isLeakTracking();

        void setLeakTracking(boolean on);
    }

    private static final Set<String> PROBES = Set.of("block-get", "block-return", "cell-copy");

    private final List<String> installs = new ArrayList<>();
    private final ObjectName name;
    private String installed = "all";
    private long switches;
    private boolean paused;
    private boolean leakTracking = true;
    /** Whether the agent was started with leak.sample=0 (nothing to turn on). */
    private final boolean leakTrackingOff;

    private FakeProbeSwitch(boolean leakTrackingOff) throws Exception {
        this.leakTrackingOff = leakTrackingOff;
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
            public synchronized boolean isLeakTracking() {
                return leakTracking && !leakTrackingOff;
            }

            @Override
            public synchronized void setLeakTracking(boolean on) {
                if (on && leakTrackingOff) {
                    throw new IllegalStateException("leak tracking is off in the agent's options (leak.sample=0)");
                }
                installs.add(on ? "leak on" : "leak off");
                leakTracking = on;
            }

            @Override
            public String getProbes() {
                return "block-get,block-return,cell-copy";
            }
        };
        ManagementFactory.getPlatformMBeanServer().registerMBean(new StandardMBean(bean, SwitchMBean.class), name);
    }

    static FakeProbeSwitch register() throws Exception {
        return new FakeProbeSwitch(false);
    }

    /** A switch of an agent started with {@code leak.sample=0}. */
    static FakeProbeSwitch registerWithoutLeakTracking() throws Exception {
        return new FakeProbeSwitch(true);
    }

    synchronized List<String> installs() {
        return List.copyOf(installs);
    }

    @Override
    public void close() throws Exception {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    }
}
