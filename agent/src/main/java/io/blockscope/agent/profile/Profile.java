package io.blockscope.agent.profile;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the agent instruments in one kind of server: a name, the classes whose presence selects it
 * automatically, the packages that are not a "call site" (the cache and cell machinery itself),
 * and its probes.
 */
public final class Profile {
    private final String name;
    private final String description;
    private final List<String> detect;
    private final List<String> siteSkip;
    private final List<ProbeSpec> probes;

    public Profile(
            String name, String description, List<String> detect, List<String> siteSkip, List<ProbeSpec> probes) {

        detect = List.copyOf(detect);
        siteSkip = List.copyOf(siteSkip);
        probes = List.copyOf(probes);
        this.name = name;
        this.description = description;
        this.detect = detect;
        this.siteSkip = siteSkip;
        this.probes = probes;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public List<String> detect() {
        return detect;
    }

    public List<String> siteSkip() {
        return siteSkip;
    }

    public List<ProbeSpec> probes() {
        return probes;
    }

    @Override
    public String toString() {
        return "profile " + name + " " + probes;
    }

    /** The classes whose methods receiver probes watch (sites there are named after the receiver). */
    public Set<String> receiverTypes() {
        Set<String> types = new LinkedHashSet<>();
        for (ProbeSpec probe : probes) {
            if (probe.kind() == ProbeKind.RECEIVER) {
                probe.types().forEach(t -> types.add(t.name()));
            }
        }
        return types;
    }

    /** Whether probes track whose work a thread does (context probes: table and user labels). */
    public boolean tracksContext() {
        return probes.stream().anyMatch(p -> p.kind() == ProbeKind.CONTEXT);
    }

    /** How the call context probe reads a call's user name; null without one. */
    public String callUserPath() {
        for (ProbeSpec probe : probes) {
            if (probe instanceof ProbeSpec.ContextProbe && ((ProbeSpec.ContextProbe) probe).userPath() != null) {
                return ((ProbeSpec.ContextProbe) probe).userPath();
            }
        }
        return null;
    }

    /** The classes heap-fallback probes instrument: a fallback's site is the first frame outside them. */
    public List<String> allocatorTypes() {
        Set<String> types = new LinkedHashSet<>();
        for (ProbeSpec probe : probes) {
            if (probe.kind() == ProbeKind.HEAP_FALLBACK) {
                probe.types().forEach(t -> types.add(t.name()));
            }
        }
        return List.copyOf(types);
    }

    /** Every tier label the probes use, in first-use order: index i is tier i on the bridge. */
    public List<String> tiers() {
        Set<String> tiers = new LinkedHashSet<>();
        for (ProbeSpec probe : probes) {
            if (probe instanceof ProbeSpec.BlockProbe) {
                ByName<String> byType = ((ProbeSpec.BlockProbe) probe).tiers();
                byType.byName().values().stream().sorted().forEach(tiers::add);
                if (byType.fallback() != null) {
                    tiers.add(byType.fallback());
                }
            }
        }
        return List.copyOf(tiers);
    }

    /**
     * The tier labels of pooled-buffer probes ({@code buffer-take}, {@code buffer-return}): pools, not
     * cache tiers. Their checkouts are tracked for leaks ({@code kind="buffer"}) and kept out of the
     * block cache's series.
     */
    public Set<String> bufferTiers() {
        Set<String> tiers = new LinkedHashSet<>();
        for (ProbeSpec probe : probes) {
            if (probe instanceof ProbeSpec.BlockProbe && ((ProbeSpec.BlockProbe) probe).pooledBuffers()) {
                ByName<String> byType = ((ProbeSpec.BlockProbe) probe).tiers();
                byType.byName().values().stream().sorted().forEach(tiers::add);
                if (byType.fallback() != null) {
                    tiers.add(byType.fallback());
                }
            }
        }
        return tiers;
    }

    /** True when some probe counts only returns of checked-out blocks, so checkouts must be remembered. */
    public boolean matchesReturns() {
        return probes.stream()
                .anyMatch(p -> p instanceof ProbeSpec.BlockReturn && ((ProbeSpec.BlockReturn) p).returnsCheckedOut());
    }

    public ProbeSpec probe(String probeName) {
        for (ProbeSpec probe : probes) {
            if (probe.name().equals(probeName)) {
                return probe;
            }
        }
        return null;
    }
}
