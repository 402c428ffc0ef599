package io.blockscope.server.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Threads that each repeat a step until told to stop; a step that throws fails the run instead of
 * dying silently on its thread.
 */
public final class ConcurrentRun {

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();

    /** Adds a thread repeating {@code step}, fed a random generator seeded with {@code seed}. */
    public ConcurrentRun repeat(String name, long seed, Consumer<SplittableRandom> step) {
        Thread thread = new Thread(
                () -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    while (!stop.get()) {
                        step.accept(random);
                    }
                },
                name);
        // A worker's AssertionError must fail the test, not die with its thread; a step releases what
        // it takes in its own finally, so nothing here stands between a take and its release.
        thread.setUncaughtExceptionHandler((t, e) -> {
            failures.add(e);
            stop.set(true);
        });
        threads.add(thread);
        return this;
    }

    /** Runs every thread for {@code duration}, waits for them, and rethrows the first failure. */
    public void runFor(Duration duration) throws InterruptedException {
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + duration.toNanos();
        while (!stop.get() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        Throwable first = failures.peek();
        if (first != null) {
            AssertionError error = new AssertionError("a worker thread failed: " + first, first);
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}
