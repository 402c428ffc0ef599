package io.blockscope.agent.diagnostics;

import io.blockscope.agent.diagnostics.bootstrap.RecordingGate;
import io.blockscope.agent.instrument.Instrumenter;
import io.blockscope.agent.instrument.ProbeExtension;
import io.blockscope.agent.instrument.TargetFilter;
import io.blockscope.agent.profile.Profile;
import io.blockscope.exporter.Log;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;

/**
 * The diagnostics jar's extension (registered in META-INF/services): puts the {@link RecordingGate}
 * into the bootstrap class loader, gates every probe's condition with it, and registers the
 * {@link ProbeSwitch} MBean once the probes are in.
 */
public final class DiagnosticsExtension implements ProbeExtension {

    static final String GATE = "io.blockscope.agent.diagnostics.bootstrap.RecordingGate";
    private static final String NESTED_JAR = "META-INF/blockscope/blockscope-diagnostics-bootstrap.jar";

    @Override
    public void prepare(Instrumentation instrumentation) throws IOException {
        if (gateLoadable()) {
            return;
        }
        Path jar = Files.createTempFile("blockscope-diagnostics-bootstrap-", ".jar");
        jar.toFile().deleteOnExit();
        try (InputStream in = DiagnosticsExtension.class.getClassLoader().getResourceAsStream(NESTED_JAR)) {
            if (in == null) {
                throw new IllegalStateException("the diagnostics agent jar lacks " + NESTED_JAR);
            }
            Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
    }

    private static boolean gateLoadable() {
        try {
            Class.forName(GATE, false, DiagnosticsExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Override
    public Advice.OffsetMapping condition(Advice.OffsetMapping profileCondition) {
        return new GatedCondition(profileCondition);
    }

    /** A failure to register the switch costs the switch only, never the agent or the host. */
    @Override
    public void installed(
            Profile profile,
            Instrumenter instrumenter,
            Instrumentation instrumentation,
            TargetFilter candidates,
            ResettableClassFileTransformer probes) {
        ProbeSwitch probeSwitch = new ProbeSwitch(profile, instrumenter, instrumentation, candidates, probes);
        try {
            Log.info("diagnostics build: probe switch registered as MBean " + probeSwitch.register()
                    + " (for overhead measurements only: while probes are out nothing is counted,"
                    + " and blocks crossing a switch skew outstanding references and leaks; probes: "
                    + probeSwitch.getProbes() + ")");
        } catch (Throwable t) {
            Log.warn("diagnostics build: the probe switch MBean " + ProbeSwitch.OBJECT_NAME
                    + " could not be registered (" + t.getClass().getName() + ": " + t.getMessage()
                    + "); the probes stay installed and the agent runs on without the switch");
        }
    }
}
