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
public record ProbeSpec(
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

    public ProbeSpec {
        types = List.copyOf(types);
        methods = List.copyOf(methods);
        tierByType = Map.copyOf(tierByType);
        componentByMethod = Map.copyOf(componentByMethod);
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
