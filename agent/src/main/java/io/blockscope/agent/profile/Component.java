package io.blockscope.agent.profile;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What a copy-to-heap copied: one cell component, or a whole block. The label set is the metric contract. */
public enum Component {
    ROW("row"),
    FAMILY("family"),
    QUALIFIER("qualifier"),
    VALUE("value"),
    TAGS("tags"),
    BLOCK("block");

    private static final Component[] VALUES = values();

    private final String label;

    Component(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The component with this index, as the bridge counts it. */
    public static Component byIndex(int index) {
        return VALUES[index];
    }

    public static Component of(String label) {
        for (Component c : VALUES) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown component '" + label + "'; accepted: "
                + Arrays.stream(VALUES).map(Component::label).collect(Collectors.joining(", ")));
    }
}
