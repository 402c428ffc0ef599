package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.CheckoutTable;
import java.time.Duration;

/**
 * Block checkouts nobody has touched for {@code leak.age}, counted exactly at each scrape from the
 * checkout table (every checkout, not a sample): a block whose references were taken and never given
 * back, and which no other reader has taken or given back since. The table stamps entries with an
 * epoch instead of a time, so the hot path reads no clock; this moves the epoch on every
 * {@code leak.age / }{@link #EPOCHS_PER_AGE} (at the first scrape past it), so a reference is
 * counted between {@code leak.age} and {@code leak.age} plus two epochs and a scrape after its
 * last touch. A block object that several readers share (HBase's RAM queue) counts as touched by
 * any of them, so a reference leaked on a block others keep using is not counted here (the
 * outstanding count still has it).
 */
public final class StuckCheckouts {

    static final int EPOCHS_PER_AGE = 4;

    private final CheckoutTable table;
    private final long epochNanos;
    private final int tiers;
    private long epochStart;
    private long[] stuck;

    public StuckCheckouts(CheckoutTable table, Duration leakAge, int tiers, long nowNanos) {
        this.table = table;
        this.epochNanos = leakAge.toNanos() / EPOCHS_PER_AGE;
        this.tiers = tiers;
        this.epochStart = nowNanos;
        this.stuck = new long[tiers];
    }

    /** Moves the epoch on when one has passed, then counts the stuck checkouts; called at scrape time. */
    public synchronized void check(long nowNanos) {
        if (nowNanos - epochStart >= epochNanos) {
            table.advance();
            epochStart = nowNanos;
        }
        stuck = table.stuck(EPOCHS_PER_AGE + 1, tiers);
    }

    /** Checkouts of tier {@code tier} stuck at the last {@link #check}. */
    public synchronized long stuck(int tier) {
        return stuck[tier];
    }
}
