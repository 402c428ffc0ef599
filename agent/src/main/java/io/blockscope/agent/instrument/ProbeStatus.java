package io.blockscope.agent.instrument;

import io.blockscope.agent.profile.Profile;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Which probes found their targets: a probe is enabled once it has instrumented at least one class.
 * Read by the {@code blockscope_agent_probe_enabled} gauge and the startup log.
 */
public final class ProbeStatus {

    private final List<String> names;
    private final AtomicBoolean[] enabled;
    private final Set<String>[] classes;
    /** Indices of each probe's alternatives. */
    private final int[][] alternatives;

    @SuppressWarnings("unchecked")
    public ProbeStatus(Profile profile) {
        this.names = profile.probes().stream().map(p -> p.name()).collect(Collectors.toList());
        this.enabled = new AtomicBoolean[names.size()];
        this.classes = new Set[names.size()];
        this.alternatives = new int[names.size()][];
        for (int i = 0; i < names.size(); i++) {
            List<String> alternativeNames = profile.probes().get(i).alternatives();
            alternatives[i] = new int[alternativeNames.size()];
            for (int a = 0; a < alternativeNames.size(); a++) {
                alternatives[i][a] = names.indexOf(alternativeNames.get(a));
            }
        }
        for (int i = 0; i < names.size(); i++) {
            enabled[i] = new AtomicBoolean();
            classes[i] = ConcurrentHashMap.newKeySet();
        }
    }

    public List<String> names() {
        return names;
    }

    /** Records that {@code probe} instrumented {@code className}; true the first time the probe applies. */
    boolean applied(int probe, String className) {
        classes[probe].add(className);
        return enabled[probe].compareAndSet(false, true);
    }

    public boolean enabled(int probe) {
        return enabled[probe].get();
    }

    /**
     * True when {@code probe} is off but one of its alternatives is on: it does the same job on
     * another version of the server, so this one is not a gap and is not reported as skipped.
     */
    public boolean covered(int probe) {
        if (enabled(probe)) {
            return false;
        }
        for (int alternative : alternatives[probe]) {
            if (alternative >= 0 && enabled(alternative)) {
                return true;
            }
        }
        return false;
    }

    /** The classes {@code probe} instrumented, sorted. */
    public Set<String> classes(int probe) {
        return new TreeSet<>(classes[probe]);
    }
}
