package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded map from keys (a server's table names, user names) to small ids, for label values: id
 * 0 is "none", then the fixed values the agent names itself ({@code (compaction)}), then up to
 * {@code cap} keys in order of first sight, then one id for every key past the cap. A lookup is
 * an open-addressed probe by {@code hashCode()} and {@code equals()}: no lock and nothing
 * allocated; only a key's first sight inserts, under the lock.
 */
public final class Interned {

    private static final VarHandle KEYS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final int fixed;
    private final int cap;
    private final Object[] keys;
    /** The id of the key in the same slot: written before the key is published. */
    private final int[] ids;
    /** By id: the key (or the fixed label); written before the id can be seen. */
    private final Object[] byId;

    private int size;
    /** Set once {@code cap} keys are in: a new key then shares other without taking the lock. */
    private volatile boolean full;

    /**
     * @param noneLabel the label of id 0
     * @param fixedLabels labels of ids 1.. that no key maps to
     * @param cap keys interned before the rest share {@link #other()}
     */
    public Interned(String noneLabel, String[] fixedLabels, int cap) {
        this.fixed = fixedLabels.length;
        this.cap = Math.max(0, cap);
        int slots = Integer.highestOneBit(Math.max(4, this.cap * 2) - 1) << 1;
        this.keys = new Object[slots];
        this.ids = new int[slots];
        this.byId = new Object[width()];
        byId[0] = noneLabel;
        System.arraycopy(fixedLabels, 0, byId, 1, fixed);
        byId[other()] = "other";
        full = this.cap == 0;
    }

    /** Ids there are: none, the fixed ones, {@code cap} keys, other. */
    public int width() {
        return 1 + fixed + cap + 1;
    }

    /** The id every key past the cap shares. */
    public int other() {
        return 1 + fixed + cap;
    }

    /** The key's id; 0 for null. */
    public int id(Object key) {
        if (key == null) {
            return 0;
        }
        int mask = keys.length - 1;
        int h = key.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        for (int probe = 0; probe <= mask; probe++, i = (i + 1) & mask) {
            Object k = KEYS.getAcquire(keys, i);
            if (k == null) {
                return full ? other() : insert(key);
            }
            if (k == key || k.equals(key)) {
                return ids[i];
            }
        }
        return other();
    }

    /** The key's first sight (or a full table: the key shares other). */
    private synchronized int insert(Object key) {
        int mask = keys.length - 1;
        int h = key.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        for (int probe = 0; probe <= mask; probe++, i = (i + 1) & mask) {
            Object k = keys[i];
            if (k == null) {
                if (size >= cap) {
                    return other(); // not inserted: the table keeps room for nothing past the cap
                }
                int id = 1 + fixed + size++;
                full = size >= cap;
                byId[id] = key;
                ids[i] = id;
                KEYS.setRelease(keys, i, key);
                return id;
            }
            if (k == key || k.equals(key)) {
                return ids[i];
            }
        }
        return other();
    }

    /** The id's key or label (null: not given out yet); the caller turns a key into a label. */
    public synchronized Object key(int id) {
        return id >= 0 && id < byId.length ? byId[id] : null;
    }

    /** Whether {@code id} is one of the fixed labels or none or other (not a key's). */
    public boolean isLabel(int id) {
        return id <= fixed || id == other();
    }
}
