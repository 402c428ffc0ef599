package io.blockscope.agent.metrics;

import io.blockscope.agent.record.CheckoutTracker;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.blockscope.exporter.Log;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leaks by acquiring site and reason, and the one log line for the first leak, with the stack that
 * checked the block out: enough to find the reader that forgot its {@code returnBlock}.
 */
public final class LeakReport implements Recorder.Leaks {

    static final int GC = 0;
    static final int AGE = 1;

    private final SiteTable sites;
    private final List<String> tiers;
    private final Duration leakAge;
    private final AtomicBoolean logged = new AtomicBoolean();

    public LeakReport(int siteLabels, List<String> tiers, Duration leakAge) {
        this.sites = new SiteTable(siteLabels, 2);
        this.tiers = tiers;
        this.leakAge = leakAge;
    }

    @Override
    public void leaked(CheckoutTracker.Checkout checkout, CheckoutTracker.Reason reason) {
        sites.add(
                checkout.site(),
                reason == CheckoutTracker.Reason.GC ? 1 : 0,
                reason == CheckoutTracker.Reason.AGE ? 1 : 0);
        // The first leak is logged, with the stack that took the block: one line, ever.
        if (!logged.compareAndSet(false, true)) {
            return;
        }
        StackTraceElement[] stack = checkout.stack();
        StringBuilder message = new StringBuilder("leak: a block checked out from ")
                .append(tiers.get(checkout.tier()))
                .append(" at ")
                .append(checkout.site())
                .append(
                        reason == CheckoutTracker.Reason.GC
                                ? " was garbage collected without being returned"
                                : " was not returned within leak.age=" + leakAge.toMillis() + "ms")
                .append(" (see blockscope_block_leaks_total for all leaks by site).");
        if (stack.length > 0) {
            message.append(" Acquired at:");
            for (StackTraceElement frame : stack) {
                message.append(" <- ").append(frame);
            }
        }
        Log.warn(message.toString());
    }

    SiteTable sites() {
        return sites;
    }
}
