package io.blockscope.agent.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/** Concurrency tests' start line: workers released together, so their operations overlap. */
final class Race {

    private Race() {}

    /** Runs {@code body.accept(w)} for w = 0 to {@code threads} - 1, each on its own thread, and waits for all. */
    static void run(int threads, IntConsumer body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                body.accept(worker);
            });
            thread.start();
            workers.add(thread);
        }
        start.countDown();
        for (Thread thread : workers) {
            thread.join();
        }
    }
}
