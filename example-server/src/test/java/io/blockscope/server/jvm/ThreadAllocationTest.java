package io.blockscope.server.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JVM-wide allocation total that /status serves to remote PE runs. */
class ThreadAllocationTest {

    private static final int CHUNK = 1 << 20;
    private static final int CHUNKS = 64;

    static volatile Object escape;

    /**
     * A request thread that ends during a step took its bytes with it before (the bean lists live
     * threads only), so the server's total dropped and PE undercounted the step.
     */
    @Test
    void theBytesOfACountedThreadStayInTheTotalAfterItEnds() throws Exception {
        ThreadAllocation allocation = ThreadAllocation.platform();
        long before = allocation.allThreads();
        Thread t = new Thread(allocation.counted(ThreadAllocationTest::allocate), "allocating-then-ending");
        t.start();
        t.join();
        long after = allocation.allThreads();
        assertTrue(
                after - before >= (long) CHUNK * CHUNKS,
                "a thread allocated " + CHUNK * CHUNKS + " bytes and ended; the total grew by " + (after - before));
    }

    @Test
    void aThreadStillListedAfterHandingItsBytesInIsNotCountedTwice() throws Exception {
        ThreadAllocation allocation = ThreadAllocation.platform();
        java.util.concurrent.CountDownLatch handedIn = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        // The outer runnable outlives the counted one: the thread is still alive (and listed by the
        // bean) with its bytes already handed in, as a pool thread is for a moment as it exits.
        Runnable counted = allocation.counted(ThreadAllocationTest::allocate);
        Thread t = new Thread(
                () -> {
                    counted.run();
                    handedIn.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "handed-in-but-alive");
        long before = allocation.allThreads();
        t.start();
        handedIn.await();
        long during = allocation.allThreads();
        release.countDown();
        t.join();
        long after = allocation.allThreads();
        long grown = during - before;
        assertTrue(grown >= (long) CHUNK * CHUNKS, "grew by " + grown);
        assertTrue(grown < 2L * CHUNK * CHUNKS, "the thread's bytes were counted twice: grew by " + grown);
        assertTrue(after >= during, "the total went down from " + during + " to " + after);
    }

    @Test
    void anUnsupportedCounterSaysUnknownNeverZero() {
        assertEquals(ThreadAllocation.UNKNOWN, ThreadAllocation.unsupported().ofCurrentThread());
        assertEquals(ThreadAllocation.UNKNOWN, ThreadAllocation.unsupported().allThreads());
        assertEquals(ThreadAllocation.UNKNOWN, ThreadAllocation.between(-1, -1));
        assertEquals(ThreadAllocation.UNKNOWN, ThreadAllocation.between(-1, 500));
        assertEquals(400, ThreadAllocation.between(100, 500));
    }

    private static void allocate() {
        for (int i = 0; i < CHUNKS; i++) {
            escape = new byte[CHUNK];
        }
    }
}
