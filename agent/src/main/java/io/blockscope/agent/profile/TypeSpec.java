package io.blockscope.agent.profile;

/**
 * Which classes a probe instruments: one class by name ({@code com.acme.Cache}), or every concrete
 * class that is or extends/implements a type ({@code subtype:com.acme.Cell}).
 */
public final class TypeSpec {
    private final String name;
    private final boolean subtypes;

    public TypeSpec(String name, boolean subtypes) {
        this.name = name;
        this.subtypes = subtypes;
    }

    public String name() {
        return name;
    }

    public boolean subtypes() {
        return subtypes;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof TypeSpec)) {
            return false;
        }
        TypeSpec that = (TypeSpec) o;
        return java.util.Objects.equals(name, that.name) && subtypes == that.subtypes;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, subtypes);
    }

    private static final String SUBTYPE = "subtype:";

    public static TypeSpec parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        boolean subtypes = trimmed.startsWith(SUBTYPE);
        String name = subtypes ? trimmed.substring(SUBTYPE.length()).trim() : trimmed;
        if (!isClassName(name)) {
            throw new IllegalArgumentException("type '" + text + "' is not a class name or subtype:<class name>");
        }
        return new TypeSpec(name, subtypes);
    }

    static boolean isClassName(String name) {
        return name.matches("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");
    }

    @Override
    public String toString() {
        return subtypes ? SUBTYPE + name : name;
    }
}
