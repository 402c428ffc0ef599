package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.AdviceErrors;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.instrument.ProbeStatus;
import io.blockscope.exporter.Log;

/**
 * One log line per probe whose advice has thrown, with the first error's stack: the advice
 * suppresses its exceptions so the host goes on, and the count alone would not say what went wrong.
 */
final class AdviceErrorLog {

    private final ProbeStatus status;
    private final long[] logged = new long[Counters.MAX_PROBES];

    AdviceErrorLog(ProbeStatus status) {
        this.status = status;
    }

    /** Logs the probes that have thrown since the last call and were never logged before. */
    void logNew() {
        for (int p = 0; p < status.names().size(); p++) {
            long count = Counters.ADVICE_ERRORS[p].sum();
            if (count > 0 && logged[p] == 0) {
                logged[p] = count;
                Log.warnOnce(
                        "advice-error:" + status.names().get(p),
                        "probe " + status.names().get(p)
                                + " threw inside its advice; the host's call went on and the error is counted in"
                                + " blockscope_agent_advice_errors_total. Check that the profile's value fits the method",
                        AdviceErrors.LAST_ERRORS[p]);
            }
        }
    }
}
