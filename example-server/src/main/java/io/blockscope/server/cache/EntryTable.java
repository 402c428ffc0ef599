package io.blockscope.server.cache;

import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The storage half of a block cache: live entries by key, plus the entries evicted while still
 * referenced ("retired"), which readers must still be able to return (support class for the caches
 * of this module).
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every entry whose memory has not been freed is either in the live map or in the retired
 *       set, at every instant: a retiring entry joins the retired set <em>before</em> it leaves the
 *       map, so a concurrent {@link #issuerOf} always finds it.</li>
 *   <li>Only {@link #remove} takes an entry out of the live map, and only one thread removes
 *       a given entry.</li>
 *   <li>The free callback runs exactly once per published entry, on the thread that dropped the
 *       last reference, after the entry has left both the map and the retired set.</li>
 * </ul>
 * Policy (which entry to evict, when) belongs to the cache; this class only keeps the books.
 */
public final class EntryTable<E extends CacheEntry> {

    private final ConcurrentHashMap<BlockCacheKey, E> live = new ConcurrentHashMap<>();
    private final Set<E> retired = ConcurrentHashMap.newKeySet();
    private final Consumer<? super E> onFree;

    /** @param onFree frees an entry's memory once nothing refers to it (slot back to the allocator) */
    public EntryTable(Consumer<? super E> onFree) {
        this.onFree = onFree;
    }

    /** The live entry for {@code key}, or null. */
    public E get(BlockCacheKey key) {
        return live.get(key);
    }

    /** Publishes a new entry; false (and nothing changed) when the key is already cached. */
    public boolean insert(E entry) {
        return live.putIfAbsent(entry.key(), entry) == null;
    }

    /**
     * Removes {@code entry} from the cache and drops the cache's reference. Its memory is freed now
     * if no reader holds it, otherwise by the last {@link #release}.
     *
     * @return false when the entry was no longer live (someone else removed it first)
     */
    public boolean remove(E entry) {
        // Joining the retired set is the claim: of two threads removing one entry, only the one
        // that added it goes on, so the loser cannot take a still-referenced entry out of the set.
        if (!retired.add(entry)) {
            return false;
        }
        if (!live.remove(entry.key(), entry)) {
            retired.remove(entry);
            return false;
        }
        if (entry.dropCacheReference()) {
            free(entry);
        }
        return true;
    }

    /** Gives back a reader reference taken with {@link CacheEntry#tryRetain()}. */
    public void release(E entry) {
        if (entry.release()) {
            free(entry);
        }
    }

    private void free(E entry) {
        retired.remove(entry);
        onFree.accept(entry);
    }

    /**
     * The entry, live or retired, that handed out {@code block}; null when none did (a block that
     * did not come from this cache, or one whose entry was freed because it was returned already).
     */
    public E issuerOf(BlockCacheKey key, Block block) {
        E entry = live.get(key);
        if (entry != null && entry.issued(block)) {
            return entry;
        }
        // Rare: the block was evicted while checked out. The retired set holds at most one entry
        // per outstanding checkout of an evicted block, so this scan stays short.
        for (E r : retired) {
            if (r.issued(block)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Removes, through {@code remove} (the cache's own removal, which keeps its accounting), every
     * live entry of {@code fileName}; returns how many were removed.
     */
    public int removeFile(String fileName, Predicate<? super E> remove) {
        int removed = 0;
        for (E entry : live.values()) {
            if (entry.key().fileName().equals(fileName) && remove.test(entry)) {
                removed++;
            }
        }
        return removed;
    }

    /** The priority group of a live entry, or null when {@code key} is not cached. */
    public BlockPriority priorityOf(BlockCacheKey key) {
        E entry = live.get(key);
        return entry == null ? null : entry.priority();
    }

    /** Outstanding checkouts of the live entry for {@code key}; 0 when it is not cached. */
    public int readersOf(BlockCacheKey key) {
        E entry = live.get(key);
        return entry == null ? 0 : entry.readers();
    }

    /** Live entries; a weakly consistent view, for eviction scans and statistics. */
    public Collection<E> entries() {
        return Collections.unmodifiableCollection(live.values());
    }

    /** Number of live entries. */
    public int size() {
        return live.size();
    }

    /** Entries evicted while referenced whose memory is not freed yet. */
    public int retiredCount() {
        return retired.size();
    }

    /** Reader references held on live and retired entries: zero when every checkout was returned. */
    public long outstandingReferences() {
        long total = 0;
        for (E e : live.values()) {
            total += e.readers();
        }
        for (E e : retired) {
            total += e.readers();
        }
        return total;
    }
}
