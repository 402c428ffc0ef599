package io.blockscope.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;

/**
 * Puts the probe bridge ({@code io.blockscope.agent.bootstrap}) into the bootstrap class loader,
 * from a small jar nested in the agent jar. Instrumented classes live in any class loader (the
 * application's, a plugin loader, an app server's); every loader delegates to the bootstrap loader,
 * so inlined advice there can always call the bridge. Only the bridge goes there: it references
 * nothing but the JDK.
 */
final class BootstrapInjector {

    static final String BRIDGE = "io.blockscope.agent.bootstrap.Bridge";
    private static final String NESTED_JAR = "META-INF/blockscope/blockscope-bootstrap.jar";

    private BootstrapInjector() {}

    /** Appends the bridge jar unless the bridge is already there (a second attach, or a test). */
    static void inject(Instrumentation instrumentation) throws IOException {
        if (bridgeLoadable()) {
            return;
        }
        Path jar = Files.createTempFile("blockscope-bootstrap-", ".jar");
        jar.toFile().deleteOnExit();
        try (InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(NESTED_JAR)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the agent jar lacks " + NESTED_JAR + "; use the jar the build produced");
            }
            Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
    }

    private static boolean bridgeLoadable() {
        try {
            // initialize=false, and the loader is the agent's own: finds the bridge if a parent has it
            Class.forName(BRIDGE, false, BootstrapInjector.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
