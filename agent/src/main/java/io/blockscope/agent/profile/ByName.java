package io.blockscope.agent.profile;

import java.util.List;
import java.util.Map;

/**
 * A label a profile gives either once for all, or by name (tier by class name, copy component by
 * method name): {@code "l2"} or {@code {"com.acme.Lru": "l1"}}.
 */
public final class ByName<T> {
    private final Map<String, T> byName;
    private final T fallback;

    /** @param fallback the label for a name {@code byName} does not list; null for none */
    public ByName(Map<String, T> byName, T fallback) {
        this.byName = Map.copyOf(byName);
        this.fallback = fallback;
    }

    /** The label for a name; the fallback (maybe null) when it is not listed. */
    public T get(String name) {
        return byName.getOrDefault(name, fallback);
    }

    /** The label of the first listed name (e.g. a class, then its superclasses); else the fallback. */
    public T first(List<String> names) {
        for (String name : names) {
            T label = byName.get(name);
            if (label != null) {
                return label;
            }
        }
        return fallback;
    }

    public Map<String, T> byName() {
        return byName;
    }

    /** Null when every label is given by name. */
    public T fallback() {
        return fallback;
    }

    public boolean isEmpty() {
        return byName.isEmpty() && fallback == null;
    }
}
