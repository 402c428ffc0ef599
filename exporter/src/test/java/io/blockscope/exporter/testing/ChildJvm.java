package io.blockscope.exporter.testing;

import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The exporter tests' child JVMs: a main class of the test class path, with small-JVM defaults. */
public final class ChildJvm {

    private ChildJvm() {}

    /**
     * Starts {@code mainClass} on {@code java} with the test class path, small-heap defaults that
     * suit a shared 2-core machine, then {@code jvmArgs} (which may override them) and {@code args}.
     */
    public static ChildProcess start(Path java, List<String> jvmArgs, Class<?> mainClass, String... args)
            throws IOException {
        return JavaCommand.on(java)
                .option("-XX:TieredStopAtLevel=1")
                .option("-XX:ActiveProcessorCount=1")
                .option("-XX:-UsePerfData")
                .options(jvmArgs)
                .classPath(System.getProperty("java.class.path"))
                .main(mainClass.getName(), args)
                .start();
    }
}
