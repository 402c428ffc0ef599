package io.blockscope.agent.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value a probe reads at an instrumented method: {@code this}, {@code return} or {@code argN}
 * (0-based), optionally followed by no-argument calls ({@code .name()}), field reads ({@code .name},
 * for state a class keeps no accessor for) and a final array {@code .length}. Examples:
 * {@code return}, {@code arg1}, {@code return.length}, {@code return.length()},
 * {@code this.allocator().indexStatistics()}, {@code this.minSizeForReservoirUse}.
 *
 * <p>Probes compile it into bytecode at instrumentation time (no reflection, nothing allocated on
 * the hot path); occupancy probes evaluate it reflectively at scrape time.
 */
public final class ValueRef {
    private final Origin origin;
    private final int argument;
    private final List<Step> steps;

    public ValueRef(Origin origin, int argument, List<Step> steps) {

        steps = List.copyOf(steps);
        this.origin = origin;
        this.argument = argument;
        this.steps = steps;
    }

    public Origin origin() {
        return origin;
    }

    public int argument() {
        return argument;
    }

    public List<Step> steps() {
        return steps;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof ValueRef)) {
            return false;
        }
        ValueRef that = (ValueRef) o;
        return java.util.Objects.equals(origin, that.origin)
                && argument == that.argument
                && java.util.Objects.equals(steps, that.steps);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(origin, argument, steps);
    }

    /** Where the chain starts. */
    public enum Origin {
        THIS,
        RETURN,
        ARGUMENT
    }

    /** One step: a call of the no-argument method {@code name}, a read of field {@code name}, or an array's length. */
    public static final class Step {
        private final String name;
        private final boolean arrayLength;
        private final boolean field;

        public Step(String name, boolean arrayLength) {
            this(name, arrayLength, false);
        }

        private Step(String name, boolean arrayLength, boolean field) {
            this.name = name;
            this.arrayLength = arrayLength;
            this.field = field;
        }

        /** True for a field read ({@code .name}, no parentheses). */
        public boolean field() {
            return field;
        }

        public String name() {
            return name;
        }

        public boolean arrayLength() {
            return arrayLength;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Step)) {
                return false;
            }
            Step that = (Step) o;
            return java.util.Objects.equals(name, that.name) && arrayLength == that.arrayLength && field == that.field;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(name, arrayLength, field);
        }

        static final Step ARRAY_LENGTH = new Step("length", true);

        static Step call(String name) {
            return new Step(name, false);
        }

        static Step fieldRead(String name) {
            return new Step(name, false, true);
        }

        @Override
        public String toString() {
            return arrayLength ? "length" : field ? name : name + "()";
        }
    }

    private static final Pattern HEAD = Pattern.compile("this|return|arg(\\d{1,2})");
    private static final Pattern CALL = Pattern.compile("([A-Za-z_$][A-Za-z0-9_$]*)\\(\\)");
    private static final Pattern FIELD = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /** Parses {@code text}; a malformed value throws with a message saying what is accepted. */
    public static ValueRef parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        String[] parts = trimmed.split("\\.", -1);
        Matcher head = HEAD.matcher(parts[0]);
        if (!head.matches()) {
            throw new IllegalArgumentException("value '" + text + "' must start with this, return or argN"
                    + " (e.g. return.length, arg1, this.allocator())");
        }
        Origin origin =
                parts[0].equals("this") ? Origin.THIS : parts[0].equals("return") ? Origin.RETURN : Origin.ARGUMENT;
        int argument = origin == Origin.ARGUMENT ? Integer.parseInt(head.group(1)) : -1;
        List<Step> steps = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            Matcher call = CALL.matcher(parts[i]);
            if (call.matches()) {
                steps.add(Step.call(call.group(1)));
            } else if (parts[i].equals("length") && i == parts.length - 1) {
                steps.add(Step.ARRAY_LENGTH);
            } else if (FIELD.matcher(parts[i]).matches() && !parts[i].equals("length")) {
                // 'length' is kept for arrays, so that a misplaced one is an error, not a field
                steps.add(Step.fieldRead(parts[i]));
            } else {
                throw new IllegalArgumentException("value '" + text + "': step '" + parts[i]
                        + "' is neither a no-argument call like name(), a field name, nor a final array length");
            }
        }
        return new ValueRef(origin, argument, steps);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(
                origin == Origin.THIS ? "this" : origin == Origin.RETURN ? "return" : "arg" + argument);
        steps.forEach(step -> out.append('.').append(step));
        return out.toString();
    }
}
