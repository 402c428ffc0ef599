package io.blockscope.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition a test cannot be told about: asks again at an interval until a deadline. */
public final class Poll {

    private Poll() {}

    /** Asks {@code condition} every {@code interval} until it holds; false if it still does not at {@code timeout}. */
    public static boolean until(Duration timeout, Duration interval, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(interval.toMillis());
        }
        return condition.getAsBoolean();
    }

    /** {@link #until(Duration, Duration, BooleanSupplier)} every 500 ms. */
    public static boolean until(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        return until(timeout, Duration.ofMillis(500), condition);
    }

    /** Sleeps, turning an interrupt into an unchecked failure (for lambdas and helpers without throws). */
    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
