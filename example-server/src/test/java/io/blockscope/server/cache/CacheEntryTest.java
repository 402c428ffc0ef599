package io.blockscope.server.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CacheEntryTest {

    static final class Entry extends CacheEntry {
        Entry(int id) {
            super(TestBlocks.key(id), BlockType.DATA, BlockPriority.SINGLE, 0);
        }

        @Override
        public long charge() {
            return 1;
        }

        @Override
        public boolean issued(Block block) {
            return false;
        }
    }

    @Test
    void freshEntryIsCachedAndUnreferenced() {
        Entry e = new Entry(1);
        assertTrue(e.isCached());
        assertEquals(0, e.readers());
    }

    @Test
    void unreferencedEntryIsFreedWhenTheCacheDropsIt() {
        Entry e = new Entry(1);
        assertTrue(e.dropCacheReference(), "no reader: the cache frees it");
        assertFalse(e.isCached());
        assertFalse(e.tryRetain(), "an entry out of the cache cannot be checked out again");
    }

    @Test
    void referencedEntryIsFreedByItsLastReader() {
        Entry e = new Entry(1);
        assertTrue(e.tryRetain());
        assertTrue(e.tryRetain());
        assertEquals(2, e.readers());
        assertFalse(e.dropCacheReference(), "two readers still hold it");
        assertFalse(e.tryRetain());
        assertFalse(e.release());
        assertTrue(e.release(), "the last reader frees it");
        assertEquals(0, e.readers());
    }

    @Test
    void cachedEntryIsNeverFreedByReaders() {
        Entry e = new Entry(1);
        assertTrue(e.tryRetain());
        assertFalse(e.release(), "the cache still holds it");
        assertTrue(e.isCached());
    }

    @Test
    void returningMoreThanCheckedOutFails() {
        Entry e = new Entry(7);
        IllegalStateException failure = assertThrows(IllegalStateException.class, e::release);
        assertTrue(failure.getMessage().contains(TestBlocks.key(7).toString()), failure.getMessage());
        assertTrue(e.isCached(), "the failed return must not steal the cache's reference");
    }

    @Test
    void droppingTheCacheReferenceTwiceFails() {
        Entry e = new Entry(1);
        e.tryRetain();
        e.dropCacheReference();
        assertThrows(IllegalStateException.class, e::dropCacheReference);
    }

    @Test
    void exactlyOneThreadFreesUnderContention() throws Exception {
        for (int round = 0; round < 200; round++) {
            Entry e = new Entry(round);
            AtomicInteger frees = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                threads.add(new Thread(() -> {
                    await(start);
                    for (int i = 0; i < 200; i++) {
                        if (e.tryRetain() && e.release()) {
                            frees.incrementAndGet();
                        }
                    }
                }));
            }
            threads.add(new Thread(() -> {
                await(start);
                if (e.dropCacheReference()) {
                    frees.incrementAndGet();
                }
            }));
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(1, frees.get(), "round " + round + ": " + e);
            assertEquals(0, e.readers());
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
