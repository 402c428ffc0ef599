package io.blockscope.server.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EntryTableTest {

    /** An entry whose checkouts are views of one buffer, like the real caches'. */
    static final class ViewEntry extends CacheEntry {
        final ByteBuff view = ByteBuff.wrap(new byte[16]);

        ViewEntry(int id) {
            super(TestBlocks.key(id), BlockType.DATA, BlockPriority.SINGLE, 0);
        }

        Block checkout() {
            return new Block(type(), view, Block.MemoryType.SHARED);
        }

        @Override
        public long charge() {
            return view.capacity();
        }

        @Override
        public boolean issued(Block block) {
            return block.data() == view;
        }
    }

    private final List<ViewEntry> freed = new ArrayList<>();
    private final EntryTable<ViewEntry> table = new EntryTable<>(freed::add);

    @Test
    void insertKeepsTheFirstEntryOfAKey() {
        ViewEntry first = new ViewEntry(1);
        assertTrue(table.insert(first));
        assertFalse(table.insert(new ViewEntry(1)));
        assertSame(first, table.get(TestBlocks.key(1)));
        assertEquals(1, table.size());
    }

    @Test
    void removingAnUnreferencedEntryFreesItAtOnce() {
        ViewEntry e = new ViewEntry(1);
        table.insert(e);
        assertTrue(table.remove(e));
        assertEquals(List.of(e), freed);
        assertNull(table.get(e.key()));
        assertEquals(0, table.retiredCount());
        assertFalse(table.remove(e), "already removed");
        assertEquals(1, freed.size());
    }

    @Test
    void aReferencedEntryRetiresUntilItsLastReturn() {
        ViewEntry e = new ViewEntry(1);
        table.insert(e);
        assertTrue(e.tryRetain());
        Block out = e.checkout();
        assertTrue(table.remove(e));
        assertTrue(freed.isEmpty(), "still checked out");
        assertEquals(1, table.retiredCount());
        assertEquals(1, table.outstandingReferences());

        // the key is cached again meanwhile: the return must still reach the retired entry
        ViewEntry again = new ViewEntry(1);
        table.insert(again);
        assertSame(e, table.issuerOf(e.key(), out));
        table.release(e);
        assertEquals(List.of(e), freed);
        assertEquals(0, table.retiredCount());
        assertEquals(0, table.outstandingReferences());
        assertNull(table.issuerOf(e.key(), out), "a freed entry no longer answers for its blocks");
        assertSame(again, table.get(e.key()));
    }

    @Test
    void issuerOfIgnoresBlocksItDidNotHandOut() {
        ViewEntry e = new ViewEntry(1);
        table.insert(e);
        Block foreign = new Block(BlockType.DATA, ByteBuff.wrap(new byte[16]), Block.MemoryType.SHARED);
        assertNull(table.issuerOf(e.key(), foreign));
    }

    @Test
    void concurrentRemovalsOfOneEntryFreeItOnceAndKeepItFindable() throws Exception {
        for (int round = 0; round < 300; round++) {
            freed.clear();
            ViewEntry e = new ViewEntry(round);
            table.insert(e);
            e.tryRetain();
            Block out = e.checkout();
            AtomicInteger removals = new AtomicInteger();
            CyclicBarrier barrier = new CyclicBarrier(2);
            Runnable remover = () -> {
                try {
                    barrier.await();
                } catch (Exception ex) {
                    throw new AssertionError(ex);
                }
                if (table.remove(e)) {
                    removals.incrementAndGet();
                }
            };
            Thread a = new Thread(remover);
            Thread b = new Thread(remover);
            a.start();
            b.start();
            a.join();
            b.join();
            assertEquals(1, removals.get());
            assertEquals(1, table.retiredCount(), "the losing remover must not un-retire the entry");
            assertSame(e, table.issuerOf(e.key(), out));
            table.release(e);
            assertEquals(List.of(e), freed);
            assertEquals(0, table.retiredCount());
        }
    }
}
