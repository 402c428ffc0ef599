package io.blockscope.server.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PriorityEvictionTest {

    static final class Entry extends CacheEntry {
        final String name;
        final long charge;

        Entry(String name, BlockPriority priority, long lastAccess, long charge) {
            super(new BlockCacheKey(name, 0), BlockType.DATA, priority, lastAccess);
            this.name = name;
            this.charge = charge;
        }

        @Override
        public long charge() {
            return charge;
        }

        @Override
        public boolean issued(Block block) {
            return false;
        }
    }

    private static List<String> names(List<Entry> victims) {
        return victims.stream().map(e -> e.name).collect(Collectors.toList());
    }

    @Test
    void chargesAreSummedPerPriority() {
        List<Entry> entries = List.of(
                new Entry("a", BlockPriority.SINGLE, 1, 10),
                new Entry("b", BlockPriority.MULTI, 2, 20),
                new Entry("c", BlockPriority.MULTI, 3, 5),
                new Entry("d", BlockPriority.MEMORY, 4, 7));
        assertArrayEquals(new long[] {10, 25, 7}, PriorityEviction.chargeByPriority(entries));
    }

    @Test
    void takesFromTheGroupFurthestOverItsShareOldestFirst() {
        // capacity 100: shares single 25, multi 50, memory 25
        List<Entry> entries = List.of(
                new Entry("s-new", BlockPriority.SINGLE, 9, 10),
                new Entry("s-old", BlockPriority.SINGLE, 1, 10),
                new Entry("s-mid", BlockPriority.SINGLE, 5, 10),
                new Entry("s-4", BlockPriority.SINGLE, 6, 10), // single: 40, 15 over
                new Entry("m-old", BlockPriority.MULTI, 0, 10),
                new Entry("m-2", BlockPriority.MULTI, 2, 10),
                new Entry("m-3", BlockPriority.MULTI, 3, 10),
                new Entry("m-4", BlockPriority.MULTI, 4, 10),
                new Entry("m-5", BlockPriority.MULTI, 7, 10),
                new Entry("m-6", BlockPriority.MULTI, 8, 10)); // multi: 60, 10 over
        long[] charge = PriorityEviction.chargeByPriority(entries);
        List<Entry> victims = PriorityEviction.selectVictims(entries, charge, 100, 30);
        // single (15 over) loses its oldest; then single 5 over vs multi 10 over: multi loses its
        // oldest; then single 5 over vs multi 0 over: single again.
        assertEquals(List.of("s-old", "m-old", "s-mid"), names(victims));
    }

    @Test
    void aGroupUnderItsShareIsTouchedOnlyWhenNothingElseIsLeft() {
        List<Entry> entries = List.of(
                new Entry("mem", BlockPriority.MEMORY, 0, 10), // memory 10 of 25: 15 under
                new Entry("s1", BlockPriority.SINGLE, 5, 10),
                new Entry("s2", BlockPriority.SINGLE, 6, 10)); // single 20 of 25: 5 under
        long[] charge = PriorityEviction.chargeByPriority(entries);
        assertEquals(List.of("s1", "s2", "mem"), names(PriorityEviction.selectVictims(entries, charge, 100, 1000)));
    }

    @Test
    void referencedEntriesCountTowardTheirGroupEvenWhenNotCandidates() {
        Entry pinned = new Entry("pinned", BlockPriority.MULTI, 0, 80);
        Entry multi = new Entry("multi", BlockPriority.MULTI, 9, 10);
        Entry single = new Entry("single", BlockPriority.SINGLE, 1, 10);
        long[] charge = PriorityEviction.chargeByPriority(List.of(pinned, multi, single));
        // multi holds 90 of its 50: it is the group to shrink, through its one evictable entry
        List<Entry> victims = PriorityEviction.selectVictims(List.of(multi, single), charge, 100, 10);
        assertEquals(List.of("multi"), names(victims));
    }

    @Test
    void stopsOnceEnoughIsFreed() {
        List<Entry> entries = List.of(
                new Entry("a", BlockPriority.SINGLE, 1, 40),
                new Entry("b", BlockPriority.SINGLE, 2, 40),
                new Entry("c", BlockPriority.SINGLE, 3, 40));
        long[] charge = PriorityEviction.chargeByPriority(entries);
        assertEquals(List.of("a", "b"), names(PriorityEviction.selectVictims(entries, charge, 100, 41)));
        assertEquals(List.of(), names(PriorityEviction.selectVictims(entries, charge, 100, 0)));
    }
}
