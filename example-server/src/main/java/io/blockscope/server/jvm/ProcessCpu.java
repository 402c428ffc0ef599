package io.blockscope.server.jvm;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this whole process (every thread: the reads, the GC, the JIT, an agent's threads),
 * which is what an overhead measurement must charge, unlike wall time on a shared machine.
 */
public final class ProcessCpu {

    /** -1: the JVM does not say. */
    public static final long UNKNOWN = -1;

    private ProcessCpu() {}

    /** CPU nanoseconds this process has used so far, or {@link #UNKNOWN}. */
    public static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long t = os.getProcessCpuTime();
            return t < 0 ? UNKNOWN : t;
        }
        return UNKNOWN;
    }
}
