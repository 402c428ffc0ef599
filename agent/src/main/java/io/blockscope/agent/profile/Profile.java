package io.blockscope.agent.profile;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the agent instruments in one kind of server: a name, the classes whose presence selects it
 * automatically, the packages that are not a "call site" (the cache and cell machinery itself),
 * and its probes.
 */
public record Profile(
        String name, String description, List<String> detect, List<String> siteSkip, List<ProbeSpec> probes) {

    public Profile {
        detect = List.copyOf(detect);
        siteSkip = List.copyOf(siteSkip);
        probes = List.copyOf(probes);
    }

    /** Every tier label the probes use, in first-use order: index i is tier i on the bridge. */
    public List<String> tiers() {
        Set<String> tiers = new LinkedHashSet<>();
        for (ProbeSpec probe : probes) {
            if (probe.tiered()) {
                probe.tierByType().values().stream().sorted().forEach(tiers::add);
                if (probe.tier() != null) {
                    tiers.add(probe.tier());
                }
            }
        }
        return List.copyOf(tiers);
    }

    /** True when some probe counts only returns of checked-out blocks, so checkouts must be remembered. */
    public boolean matchesReturns() {
        return probes.stream().anyMatch(ProbeSpec::returnsCheckedOut);
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
