package io.blockscope.exporter.gc;

/**
 * A source whose events reach the metrics some time after they happen (JFR flushes about once a
 * second) and that can say when everything up to now has arrived.
 */
interface EventBarrier {

    /** Waits until every GC event that happened before this call is counted; false on timeout. */
    boolean awaitDelivered(long timeoutNanos) throws InterruptedException;
}
