package io.blockscope.agent.instrument;

import io.blockscope.agent.profile.Profile;
import java.lang.instrument.Instrumentation;
import java.util.Iterator;
import java.util.ServiceLoader;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;

/**
 * Code a build of the agent adds around the probes' install, found with {@link ServiceLoader} in the
 * agent jar. The production jar has none, so its advice tests only the profile's conditions; the
 * diagnostics jar's one (io.blockscope.agent.diagnostics) adds the probe switch of overhead
 * measurements.
 */
public interface ProbeExtension {

    /** Before any probe is installed: anything the extension's advice needs in place. */
    void prepare(Instrumentation instrumentation) throws Exception;

    /**
     * The condition a probe's advice tests before it records, made from the profile's ({@code
     * profileCondition}, a {@code boolean} value).
     */
    Advice.OffsetMapping condition(Advice.OffsetMapping profileCondition);

    /** Once every probe is in: {@code probes} is the transformer {@code instrumenter} installed. */
    void installed(
            Profile profile,
            Instrumenter instrumenter,
            Instrumentation instrumentation,
            TargetFilter candidates,
            ResettableClassFileTransformer probes);

    /** The extension in {@code loader}'s jars, or null when there is none (the production jar). */
    static ProbeExtension find(ClassLoader loader) {
        Iterator<ProbeExtension> found =
                ServiceLoader.load(ProbeExtension.class, loader).iterator();
        return found.hasNext() ? found.next() : null;
    }
}
