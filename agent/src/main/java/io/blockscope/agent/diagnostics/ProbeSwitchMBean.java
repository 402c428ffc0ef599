package io.blockscope.agent.diagnostics;

/**
 * The run-time probe switch of the diagnostics agent jar, registered as the platform MBean
 * {@value ProbeSwitch#OBJECT_NAME}: removes and reinstalls the agent's probes in a warm JVM so an
 * overhead measurement can alternate windows with and without them. For measurements only: while
 * probes are switched out nothing is counted, and a block checked out on one side of a switch and
 * returned on the other leaves the outstanding-references gauge and the leak reports wrong.
 */
public interface ProbeSwitchMBean {

    /**
     * The probes installed now: {@code all}, {@code none}, or the names of the installed ones in
     * the profile's order, comma-separated.
     */
    String getInstalled();

    /**
     * Installs exactly the probes {@code spec} names ({@code all}, {@code none}, or a
     * comma-separated list of the profile's probe names); returns once the loaded classes are
     * retransformed. An unknown name is an {@link IllegalArgumentException} that lists the
     * profile's probes; any other failure an {@link IllegalStateException} (and one log line).
     */
    void setInstalled(String spec);

    /** How many times the installed set changed. */
    long getSwitches();

    /** The names of all the profile's probes, in profile order, comma-separated. */
    String getProbes();

    /** Whether the installed probes record nothing for now (see {@link #setPaused}). */
    boolean isPaused();

    /**
     * Pauses or resumes recording without retransforming: the installed probes' advice still runs
     * and reads the recording gate, but skips its call into the agent. Switching takes microseconds and leaves the
     * compiled code alone, so a measurement can alternate many short windows; it shows what the
     * probes' recording costs, not the advice's call itself ({@link #setInstalled} shows all).
     */
    void setPaused(boolean paused);

    /** Whether block checkouts are sampled for hold time and leaks now (see {@link #setLeakTracking}). */
    boolean isLeakTracking();

    /**
     * Turns leak tracking off, or back on at the options' {@code leak.sample}, with every probe
     * still recording: a measurement can alternate windows with and without it and show its own
     * cost. Off, no checkout is sampled and those already tracked end at their return. An agent
     * started with {@code leak.sample=0} has none to turn on: an {@link IllegalStateException}.
     */
    void setLeakTracking(boolean on);
}
