package io.blockscope.agent.bootstrap;

/** Captures what advice suppressed: the exception handler every probe's advice gets calls this. */
public final class AdviceErrors {

    /** The last throwable each probe's advice suppressed, for the agent's one-time log line. */
    public static final Throwable[] LAST_ERRORS = new Throwable[Counters.MAX_PROBES];

    private AdviceErrors() {}

    /**
     * Counts the suppressed throwable against its probe. It must never throw, or the host would see
     * the advice's failure.
     */
    public static void adviceError(Throwable error, int probe) {
        try {
            Counters.ADVICE_ERRORS[probe].increment();
            LAST_ERRORS[probe] = error;
        } catch (Throwable ignored) {
            // nothing sensible left to do; the host must go on
        }
    }
}
