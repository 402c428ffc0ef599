package io.blockscope.agent.profile;

/**
 * A yes or no a probe decides at its methods: a boolean value read there (e.g.
 * {@code this.isSharedMem()}), or a constant when the profile gives none.
 */
public final class Condition {
    /** What a probe assumes when the profile sets no condition: every call counts. */
    public static final Condition ALWAYS = new Condition(null, true);

    public static final Condition NEVER = new Condition(null, false);

    private final ValueRef value;
    private final boolean constant;

    private Condition(ValueRef value, boolean constant) {
        this.value = value;
        this.constant = constant;
    }

    public static Condition of(ValueRef value) {
        return new Condition(value, false);
    }

    /** The boolean value read at the method; null when the condition is {@link #constant()}. */
    public ValueRef value() {
        return value;
    }

    /** The answer when there is no value to read. */
    public boolean constant() {
        return constant;
    }

    @Override
    public String toString() {
        return value != null ? value.toString() : String.valueOf(constant);
    }
}
