package io.blockscope.agent.diagnostics.bootstrap;

/**
 * Whether the diagnostics build's probes record: its advice tests {@link #open} with the profile's
 * condition, so a closed gate skips the call into the bridge without retransforming anything.
 */
public final class RecordingGate {

    /** Read by inlined advice in every class loader: public, and volatile so a pause is seen at once. */
    @SuppressWarnings("NonFinalStaticField") // the one switch this class exists for
    public static volatile boolean open = true;

    private RecordingGate() {}
}
