package io.blockscope.hbasers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client threads that repeat a load's steps until stopped, counting completed and failed calls: what
 * {@link MixedLoad} and {@link ReadLoad} share.
 */
final class LoadThreads {

    /** One client call; {@code step} counts the thread's calls, so a load can cycle through kinds. */
    interface Step {
        void run(int step, SplittableRandom random) throws IOException;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong operations = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();
    private volatile boolean running = true;

    /** Starts {@code count} threads named {@code name-N}, each with its own seeded random. */
    void start(int count, String name, Step step) {
        for (int t = 0; t < count; t++) {
            long seed = 1000 + t;
            Thread thread = new Thread(() -> run(step, new SplittableRandom(seed)), name + "-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    long operations() {
        return operations.get();
    }

    long errors() {
        return errors.get();
    }

    Throwable firstError() {
        return firstError.get();
    }

    private void run(Step step, SplittableRandom random) {
        for (int i = 0; running; i++) {
            try {
                step.run(i, random);
                operations.incrementAndGet();
            } catch (IOException | RuntimeException e) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, e);
            }
        }
    }

    /** Stops the threads and waits for each (its call in flight ends first). */
    void stop() {
        running = false;
        for (Thread thread : threads) {
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
