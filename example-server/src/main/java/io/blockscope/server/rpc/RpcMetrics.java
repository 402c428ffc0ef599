package io.blockscope.server.rpc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Request counters of the RPC tier, shown on {@code /status}. */
final class RpcMetrics {

    private final LongAdder requests = new LongAdder();
    private final LongAdder clientErrors = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder responsesWritten = new LongAdder();
    private final LongAdder responsesFailed = new LongAdder();
    private final LongAdder partialScans = new LongAdder();

    void request() {
        requests.increment();
    }

    void error(int status) {
        if (status >= 500) {
            serverErrors.increment();
        } else {
            clientErrors.increment();
        }
    }

    void timeout() {
        timeouts.increment();
    }

    void partialScan() {
        partialScans.increment();
    }

    void responseWritten() {
        responsesWritten.increment();
    }

    /** A response whose write failed: the client went away or stopped reading. */
    void responseFailed() {
        responsesFailed.increment();
    }

    Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requests.sum());
        m.put("clientErrors", clientErrors.sum());
        m.put("serverErrors", serverErrors.sum());
        m.put("timeouts", timeouts.sum());
        m.put("continuedScans", partialScans.sum());
        m.put("responsesWritten", responsesWritten.sum());
        m.put("responsesFailed", responsesFailed.sum());
        return m;
    }
}
