package io.blockscope.agent.record;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The instances occupancy probes captured (bucket caches, allocators), held weakly so the agent
 * never keeps a closed cache alive. Read at scrape time; no thread polls them.
 */
public final class InstanceRegistry {

    /** More than this many live instances per probe is a pathological host; later ones are ignored. */
    static final int MAX_PER_PROBE = 64;

    private final List<List<WeakReference<Object>>> byProbe = new ArrayList<>();
    /** Captures not remembered because their probe already had {@link #MAX_PER_PROBE}; under the lock. */
    private long ignored;

    public InstanceRegistry(int probes) {
        for (int i = 0; i < probes; i++) {
            byProbe.add(new ArrayList<>());
        }
    }

    /** Remembers {@code instance} for {@code probe} unless it is already known. */
    public synchronized void add(int probe, Object instance) {
        List<WeakReference<Object>> refs = byProbe.get(probe);
        for (Iterator<WeakReference<Object>> it = refs.iterator(); it.hasNext(); ) {
            Object known = it.next().get();
            if (known == null) {
                it.remove();
            } else if (known == instance) {
                return;
            }
        }
        if (refs.size() < MAX_PER_PROBE) {
            refs.add(new WeakReference<>(instance));
        } else {
            ignored++;
        }
    }

    /** Captures left out because their probe had {@link #MAX_PER_PROBE} live instances already. */
    public synchronized long ignored() {
        return ignored;
    }

    /** The live instances of {@code probe}, oldest first. */
    public synchronized List<Object> live(int probe) {
        List<Object> out = new ArrayList<>();
        for (Iterator<WeakReference<Object>> it = byProbe.get(probe).iterator(); it.hasNext(); ) {
            Object instance = it.next().get();
            if (instance == null) {
                it.remove();
            } else {
                out.add(instance);
            }
        }
        return out;
    }
}
