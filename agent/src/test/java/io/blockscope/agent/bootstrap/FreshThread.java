package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a test's work on a thread of its own, as a new handler thread would: a counter row of the
 * configured widths and no context left by an earlier call. What the work throws fails the test.
 */
public final class FreshThread {

    private FreshThread() {}

    public static void run(Runnable work) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) { // carried to the test's thread, whatever it is
                failure.set(e);
            }
        });
        thread.start();
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
