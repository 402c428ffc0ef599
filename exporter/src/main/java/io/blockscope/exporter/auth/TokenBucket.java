package io.blockscope.exporter.auth;

/**
 * A token bucket on {@link System#nanoTime()}: {@code burst} tokens, one more every {@code
 * refillNanos}. Guarded by its own monitor: it is taken only on the authentication path of a
 * header not seen before, never on a scrape that carries verified credentials.
 */
final class TokenBucket {

    private final int burst;
    private final long refillNanos;
    private double tokens;
    private long updated;

    TokenBucket(int burst, long refillNanos, long now) {
        this.burst = burst;
        this.refillNanos = refillNanos;
        this.tokens = burst;
        this.updated = now;
    }

    /** Takes a token if one is there. */
    synchronized boolean tryTake(long now) {
        refill(now);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Gives back a token taken for an attempt that turned out not to be a failure. */
    synchronized void giveBack(long now) {
        refill(now);
        tokens = Math.min(burst, tokens + 1);
    }

    /** Nanoseconds until the next token, 0 when one is there. */
    synchronized long nanosUntilToken(long now) {
        refill(now);
        return tokens >= 1 ? 0 : (long) ((1 - tokens) * refillNanos);
    }

    private void refill(long now) {
        long elapsed = now - updated;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + (double) elapsed / refillNanos);
            updated = now;
        }
    }
}
