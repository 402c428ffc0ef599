package io.blockscope.agent.instrument;

import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

/**
 * Says, before anything is instrumented, which probes of a profile can find their targets: it reads
 * class files through a {@link TypePool}, so nothing is loaded or initialized. This is what the
 * startup log reports; the {@code blockscope_agent_probe_enabled} gauge then follows what was
 * really instrumented.
 */
public final class ProbeCheck {

    /** A probe's targets: found (with the classes), or skipped (with why). */
    public static final class Result {
        private final String probe;
        private final boolean found;
        private final List<String> details;

        public Result(String probe, boolean found, List<String> details) {
            this.probe = probe;
            this.found = found;
            this.details = details;
        }

        public String probe() {
            return probe;
        }

        public boolean found() {
            return found;
        }

        public List<String> details() {
            return details;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Result)) {
                return false;
            }
            Result that = (Result) o;
            return java.util.Objects.equals(probe, that.probe)
                    && found == that.found
                    && java.util.Objects.equals(details, that.details);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(probe, found, details);
        }

        @Override
        public String toString() {
            return "Result[probe=" + probe + ", found=" + found + ", details=" + details + "]";
        }
    }

    private ProbeCheck() {}

    public static List<Result> check(Profile profile, ClassLoader loader) {
        TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
        List<Result> results = new ArrayList<>();
        for (ProbeSpec probe : profile.probes()) {
            ElementMatcher.Junction<MethodDescription> methods = Instrumenter.methodMatcher(probe.methods());
            List<String> found = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (TypeSpec type : probe.types()) {
                TypePool.Resolution resolution = pool.describe(type.name());
                if (!resolution.isResolved()) {
                    missing.add(type.name() + " is not on the class path");
                    continue;
                }
                TypeDescription description = resolution.resolve();
                if (type.subtypes()
                        || !description.getDeclaredMethods().filter(methods).isEmpty()) {
                    found.add(type.toString());
                } else {
                    missing.add(type.name() + " declares no " + probe.methods());
                }
            }
            results.add(new Result(probe.name(), !found.isEmpty(), found.isEmpty() ? missing : found));
        }
        return results;
    }
}
