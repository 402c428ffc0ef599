package io.blockscope.server.filter;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which {@code class:} filters may be named, and by whom. A filter class is code that runs on the
 * server for every cell of a scan, so a client may name only classes the operator listed with
 * {@code serve --allow-filter-classes}; the operator's own tools (PE in-process, tests) use {@link
 * #ANY}.
 */
public final class FilterClasses {

    /** The serve option that lists the allowed classes. */
    public static final String OPTION = "--allow-filter-classes";

    /** Any class on the class path: only for specs the operator wrote. */
    public static final FilterClasses ANY = new FilterClasses(null);

    /** No class at all: the server's default. */
    public static final FilterClasses NONE = new FilterClasses(Set.of());

    private final Set<String> allowed;

    private FilterClasses(Set<String> allowed) {
        this.allowed = allowed;
    }

    /**
     * The classes listed by the operator, each checked now (found, a {@link Filter}, constructible),
     * so that a typo fails the server's start rather than every client's scan.
     */
    public static FilterClasses allowing(Collection<String> names, ClassLoader loader) {
        Set<String> set = new TreeSet<>();
        for (String name : names) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            try {
                FilterSpec.parse("class:" + n, loader, ANY);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(OPTION + ": " + e.getMessage());
            }
            set.add(n);
        }
        return set.isEmpty() ? NONE : new FilterClasses(Set.copyOf(set));
    }

    boolean allows(String className) {
        return allowed == null || allowed.contains(className);
    }

    /** The listed classes, for /status; empty for {@link #NONE}, ["*"] for {@link #ANY}. */
    public List<String> names() {
        return allowed == null ? List.of("*") : List.copyOf(new TreeSet<>(allowed));
    }

    /** Why {@code className} may not be used, naming the option that would allow it. */
    String refusal(String className) {
        return "filter class '" + className + "' is not allowed on this server: class: filters run code on the server,"
                + " so only classes listed by the operator may be named"
                + (allowed.isEmpty() ? " (none are)" : " (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")")
                + "; start the server with " + OPTION + " " + className + " to allow it";
    }
}
