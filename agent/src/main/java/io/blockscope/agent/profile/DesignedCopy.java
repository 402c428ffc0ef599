package io.blockscope.agent.profile;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A copy of offheap cell bytes onto the heap that the server makes by design, told apart from the
 * avoidable ones a filter or coprocessor makes: counted, but not what the hot-copy alert judges. The
 * label set is the metric contract ({@code blockscope_copy_by_design_total{operation}}).
 */
public enum DesignedCopy {
    /** A mutation takes its cells' families out of the request's (pooled, offheap) buffer. */
    WRITE("write"),
    /**
     * A key kept past the buffer it lives in: a scan's position when it ships a batch and gives its
     * blocks back, a file writer's first and last keys of a block.
     */
    RETAINED_KEY("retained-key");

    private static final DesignedCopy[] VALUES = values();

    private final String label;

    DesignedCopy(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static DesignedCopy byIndex(int index) {
        return VALUES[index];
    }

    public static DesignedCopy of(String label) {
        for (DesignedCopy d : VALUES) {
            if (d.label.equals(label)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + label + "'; accepted: "
                + Arrays.stream(VALUES).map(DesignedCopy::label).collect(Collectors.joining(", ")));
    }
}
