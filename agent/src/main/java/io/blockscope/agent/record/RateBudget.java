package io.blockscope.agent.record;

import java.util.concurrent.atomic.AtomicLong;

/**
 * At most {@code perSecond} grants a second on average, up to one second's worth at once: the
 * generic cell rate algorithm, one {@link AtomicLong} holding the time the next grant is "due".
 * No lock and no allocation; asked only for sampled events, so the CAS never sees contention worth
 * the name.
 *
 * <p>Why a budget on top of a sampling rate: a sample's cost (a stack capture, a tracking record)
 * is paid per sample, and 1 in N of a busy server's checkouts is thousands a second, far more than
 * leak detection needs.
 * A time budget bounds that cost however busy the server gets, and leaves a quiet server's sampling
 * as it was.
 */
final class RateBudget {

    private static final long SECOND = 1_000_000_000L;

    /** Nanoseconds between grants at the steady rate; 0: no limit. */
    private final long intervalNanos;
    /** How far ahead of now the due time may run: a burst of one second's worth of grants. */
    private final long toleranceNanos;

    private final AtomicLong due;

    /** @param perSecond grants a second; 0 means no limit */
    RateBudget(int perSecond, long nowNanos) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("a rate cannot be negative: " + perSecond);
        }
        this.intervalNanos = perSecond == 0 ? 0 : Math.max(1, SECOND / perSecond);
        this.toleranceNanos = SECOND - intervalNanos;
        this.due = new AtomicLong(nowNanos);
    }

    /** Takes one grant if the budget has one at {@code nowNanos}. */
    boolean tryAcquire(long nowNanos) {
        if (intervalNanos == 0) {
            return true;
        }
        for (; ; ) {
            long current = due.get();
            long from = current - nowNanos > 0 ? current : nowNanos;
            if (from - nowNanos > toleranceNanos) {
                return false;
            }
            if (due.compareAndSet(current, from + intervalNanos)) {
                return true;
            }
        }
    }
}
