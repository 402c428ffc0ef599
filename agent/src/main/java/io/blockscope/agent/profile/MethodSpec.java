package io.blockscope.agent.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * Which methods of a matched class a probe instruments: {@code name} (any parameters),
 * {@code name()} (none), {@code name(com.acme.Key,boolean)} (exactly these), or {@code <init>} for
 * constructors. Parameter types are written as in Java source: {@code int}, {@code byte[]},
 * {@code com.acme.Outer$Inner}.
 */
public final class MethodSpec {
    private final String name;
    private final List<String> parameters;

    public MethodSpec(String name, List<String> parameters) {

        parameters = parameters == null ? null : List.copyOf(parameters);
        this.name = name;
        this.parameters = parameters;
    }

    public String name() {
        return name;
    }

    public List<String> parameters() {
        return parameters;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof MethodSpec)) {
            return false;
        }
        MethodSpec that = (MethodSpec) o;
        return java.util.Objects.equals(name, that.name) && java.util.Objects.equals(parameters, that.parameters);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, parameters);
    }

    public static final String CONSTRUCTOR = "<init>";

    /** Parameters are {@code null} when any parameter list matches. */
    public boolean constructor() {
        return name.equals(CONSTRUCTOR);
    }

    public static MethodSpec parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        int open = trimmed.indexOf('(');
        String name = open < 0 ? trimmed : trimmed.substring(0, open).trim();
        if (!name.equals(CONSTRUCTOR) && !name.matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
            throw new IllegalArgumentException("method '" + text + "' must be name, name(), name(type,...) or <init>");
        }
        if (open < 0) {
            return new MethodSpec(name, null);
        }
        if (!trimmed.endsWith(")")) {
            throw new IllegalArgumentException("method '" + text + "' lacks its closing parenthesis");
        }
        String inside = trimmed.substring(open + 1, trimmed.length() - 1).trim();
        List<String> parameters = new ArrayList<>();
        if (!inside.isEmpty()) {
            for (String parameter : inside.split(",")) {
                String type = parameter.trim();
                String element = type.replace("[]", "");
                if (!TypeSpec.isClassName(element)) {
                    throw new IllegalArgumentException(
                            "method '" + text + "': parameter '" + type + "' is not a type name");
                }
                parameters.add(type);
            }
        }
        return new MethodSpec(name, parameters);
    }

    @Override
    public String toString() {
        return parameters == null ? name : name + "(" + String.join(",", parameters) + ")";
    }
}
