package io.blockscope.agent.profile;

import java.util.List;
import java.util.Map;

/**
 * One probe of a profile: what it counts ({@link ProbeKind}), where (types and methods), and which
 * value at those methods is the block, the byte count or the instance.
 *
 * @param when              a boolean value; when present the probe counts only calls where it is
 *                          true (e.g. {@code this.isSharedMem()}); null counts every call
 * @param counted           block-get only: a boolean value saying whether the lookup counts in
 *                          {@code gets_total} (e.g. the cache's own metrics flag); null counts all.
 *                          A block handed out by an uncounted lookup is still a checkout.
 * @param checkout          block-get only: a boolean value read on hits only, saying whether the hit
 *                          is a checkout the reader gives back (e.g. {@code return.isSharedMem()});
 *                          null means the constant {@code checkoutConstant}
 * @param checkoutConstant  whether every hit is a checkout, when {@code checkout} is null
 * @param returnsCheckedOut block-return only: count a return only when it gives back a block a
 *                          hit checked out, under that hit's tier (profile: "returns": "checked-out")
 * @param tierByType        tier label by class name, looked up along the instrumented class's
 *                          superclasses; {@code tier} applies when none matches
 * @param componentByMethod copy component by method name; {@code component} applies when none matches
 */
public final class ProbeSpec {
    private final String name;
    private final ProbeKind kind;
    private final List<TypeSpec> types;
    private final List<MethodSpec> methods;
    private final ValueRef value;
    private final ValueRef when;
    private final ValueRef counted;
    private final ValueRef checkout;
    private final boolean checkoutConstant;
    private final boolean returnsCheckedOut;
    private final Map<String, String> tierByType;
    private final String tier;
    private final Map<String, Component> componentByMethod;
    private final Component component;
    private final OccupancySpec occupancy;
    private final List<String> alternatives;
    private final PoolSpec pool;

    public ProbeSpec(
            String name,
            ProbeKind kind,
            List<TypeSpec> types,
            List<MethodSpec> methods,
            ValueRef value,
            ValueRef when,
            ValueRef counted,
            ValueRef checkout,
            boolean checkoutConstant,
            boolean returnsCheckedOut,
            Map<String, String> tierByType,
            String tier,
            Map<String, Component> componentByMethod,
            Component component,
            OccupancySpec occupancy) {
        this(
                name,
                kind,
                types,
                methods,
                value,
                when,
                counted,
                checkout,
                checkoutConstant,
                returnsCheckedOut,
                tierByType,
                tier,
                componentByMethod,
                component,
                occupancy,
                List.of());
    }

    /**
     * @param alternatives probes of the same profile that do this probe's job on other versions of
     *     the server (e.g. the give-back method of one release line or the other): when one of them
     *     is enabled, this probe being off is expected, not a gap
     */
    public ProbeSpec(
            String name,
            ProbeKind kind,
            List<TypeSpec> types,
            List<MethodSpec> methods,
            ValueRef value,
            ValueRef when,
            ValueRef counted,
            ValueRef checkout,
            boolean checkoutConstant,
            boolean returnsCheckedOut,
            Map<String, String> tierByType,
            String tier,
            Map<String, Component> componentByMethod,
            Component component,
            OccupancySpec occupancy,
            List<String> alternatives) {
        this(
                name,
                kind,
                types,
                methods,
                value,
                when,
                counted,
                checkout,
                checkoutConstant,
                returnsCheckedOut,
                tierByType,
                tier,
                componentByMethod,
                component,
                occupancy,
                alternatives,
                null);
    }

    /** @param pool heap-fallback only: the reason's inputs and the allocator's scrape-time figures */
    public ProbeSpec(
            String name,
            ProbeKind kind,
            List<TypeSpec> types,
            List<MethodSpec> methods,
            ValueRef value,
            ValueRef when,
            ValueRef counted,
            ValueRef checkout,
            boolean checkoutConstant,
            boolean returnsCheckedOut,
            Map<String, String> tierByType,
            String tier,
            Map<String, Component> componentByMethod,
            Component component,
            OccupancySpec occupancy,
            List<String> alternatives,
            PoolSpec pool) {
        this.alternatives = List.copyOf(alternatives);
        this.pool = pool;

        types = List.copyOf(types);
        methods = List.copyOf(methods);
        tierByType = Map.copyOf(tierByType);
        componentByMethod = Map.copyOf(componentByMethod);
        this.name = name;
        this.kind = kind;
        this.types = types;
        this.methods = methods;
        this.value = value;
        this.when = when;
        this.counted = counted;
        this.checkout = checkout;
        this.checkoutConstant = checkoutConstant;
        this.returnsCheckedOut = returnsCheckedOut;
        this.tierByType = tierByType;
        this.tier = tier;
        this.componentByMethod = componentByMethod;
        this.component = component;
        this.occupancy = occupancy;
    }

    public String name() {
        return name;
    }

    public ProbeKind kind() {
        return kind;
    }

    public List<TypeSpec> types() {
        return types;
    }

    public List<MethodSpec> methods() {
        return methods;
    }

    public ValueRef value() {
        return value;
    }

    public ValueRef when() {
        return when;
    }

    public ValueRef counted() {
        return counted;
    }

    public ValueRef checkout() {
        return checkout;
    }

    public boolean checkoutConstant() {
        return checkoutConstant;
    }

    public boolean returnsCheckedOut() {
        return returnsCheckedOut;
    }

    public Map<String, String> tierByType() {
        return tierByType;
    }

    public String tier() {
        return tier;
    }

    public Map<String, Component> componentByMethod() {
        return componentByMethod;
    }

    public Component component() {
        return component;
    }

    public OccupancySpec occupancy() {
        return occupancy;
    }

    /** Heap-fallback probes: why an allocation was not pooled, and the allocator's figures; else null. */
    public PoolSpec pool() {
        return pool;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof ProbeSpec)) {
            return false;
        }
        ProbeSpec that = (ProbeSpec) o;
        return java.util.Objects.equals(name, that.name)
                && java.util.Objects.equals(kind, that.kind)
                && java.util.Objects.equals(types, that.types)
                && java.util.Objects.equals(methods, that.methods)
                && java.util.Objects.equals(value, that.value)
                && java.util.Objects.equals(when, that.when)
                && java.util.Objects.equals(counted, that.counted)
                && java.util.Objects.equals(checkout, that.checkout)
                && checkoutConstant == that.checkoutConstant
                && returnsCheckedOut == that.returnsCheckedOut
                && java.util.Objects.equals(tierByType, that.tierByType)
                && java.util.Objects.equals(tier, that.tier)
                && java.util.Objects.equals(componentByMethod, that.componentByMethod)
                && java.util.Objects.equals(component, that.component)
                && java.util.Objects.equals(occupancy, that.occupancy)
                && java.util.Objects.equals(pool, that.pool);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(
                name,
                kind,
                types,
                methods,
                value,
                when,
                counted,
                checkout,
                checkoutConstant,
                returnsCheckedOut,
                tierByType,
                tier,
                componentByMethod,
                component,
                occupancy,
                pool);
    }

    @Override
    public String toString() {
        return "ProbeSpec[name=" + name + ", kind=" + kind + ", types=" + types + ", methods=" + methods + ", value="
                + value + ", when=" + when + ", counted=" + counted + ", checkout=" + checkout + ", checkoutConstant="
                + checkoutConstant + ", returnsCheckedOut=" + returnsCheckedOut + ", tierByType=" + tierByType
                + ", tier=" + tier + ", componentByMethod=" + componentByMethod + ", component=" + component
                + ", occupancy=" + occupancy + ", pool=" + pool + "]";
    }

    /** Probes that do this probe's job on other versions of the server; empty when none. */
    public List<String> alternatives() {
        return alternatives;
    }

    /** The tier of a class given its name and its superclasses' names, nearest first; null if none. */
    public String tierFor(List<String> classAndSuperclasses) {
        for (String name : classAndSuperclasses) {
            String label = tierByType.get(name);
            if (label != null) {
                return label;
            }
        }
        return tier;
    }

    /** The component counted for a method name; null if none. */
    public Component componentFor(String methodName) {
        return componentByMethod.getOrDefault(methodName, component);
    }

    /** True when this kind counts by tier. */
    public boolean tiered() {
        return kind == ProbeKind.BLOCK_GET || kind == ProbeKind.BLOCK_RETURN;
    }
}
