package io.blockscope.server.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The eviction policy shared by the caches: take from the priority group furthest over its share
 * of capacity, least recently used first within a group (HBase's LruBlockCache policy).
 *
 * <p>The choice is re-made after every victim, so the groups' overflows even out instead of one
 * group being drained before the next is touched. A pure function of its inputs, hence testable
 * without a cache around it.
 */
public final class PriorityEviction {

    private static final BlockPriority[] PRIORITIES = BlockPriority.values();

    private PriorityEviction() {}

    /** Bytes held by each priority group (index = ordinal). */
    public static long[] chargeByPriority(Collection<? extends CacheEntry> entries) {
        long[] charge = new long[PRIORITIES.length];
        for (CacheEntry e : entries) {
            charge[e.priority().ordinal()] += e.charge();
        }
        return charge;
    }

    /**
     * Chooses victims until their charges add up to {@code bytesToFree} or the candidates run out.
     *
     * @param candidates       entries that may be evicted (for a bucket cache: unreferenced ones)
     * @param chargeByPriority bytes held by each group, counting every cached entry, candidate or not
     * @param capacity         the capacity the groups' shares are fractions of
     * @return victims in eviction order
     */
    public static <E extends CacheEntry> List<E> selectVictims(
            Collection<? extends E> candidates, long[] chargeByPriority, long capacity, long bytesToFree) {
        List<List<Candidate<E>>> groups = new ArrayList<>(PRIORITIES.length);
        for (int i = 0; i < PRIORITIES.length; i++) {
            groups.add(new ArrayList<>());
        }
        for (E e : candidates) {
            // Hits change an entry's priority and access time while we sort: sort a snapshot.
            Candidate<E> c = new Candidate<>(e, e.lastAccess(), e.charge());
            groups.get(e.priority().ordinal()).add(c);
        }
        long[] overflow = new long[PRIORITIES.length];
        for (int i = 0; i < PRIORITIES.length; i++) {
            groups.get(i).sort(Comparator.comparingLong(Candidate::lastAccess));
            overflow[i] = chargeByPriority[i] - (long) (PRIORITIES[i].share() * capacity);
        }
        int[] next = new int[PRIORITIES.length];
        List<E> victims = new ArrayList<>();
        long freed = 0;
        while (freed < bytesToFree) {
            int pick = -1;
            for (int i = 0; i < PRIORITIES.length; i++) {
                // ties go to the lower ordinal: single-access blocks are the cheapest to lose
                if (next[i] < groups.get(i).size() && (pick < 0 || overflow[i] > overflow[pick])) {
                    pick = i;
                }
            }
            if (pick < 0) {
                break;
            }
            Candidate<E> victim = groups.get(pick).get(next[pick]++);
            victims.add(victim.entry());
            freed += victim.charge();
            overflow[pick] -= victim.charge();
        }
        return victims;
    }

    private record Candidate<E>(E entry, long lastAccess, long charge) {}
}
