package io.blockscope.hbasers;

import java.nio.file.Files;
import java.nio.file.Path;

/** The built blockscope agent jar (the same lookup as agent/hbase-it's). */
final class AgentJar {

    private AgentJar() {}

    static Path locate() {
        String configured = System.getProperty("blockscope.agent.jar");
        Path jar = Path.of(configured != null ? configured : "../target/blockscope-agent.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("agent jar " + jar.toAbsolutePath()
                    + " not found: build it first (mvn -pl agent/hbase-rs-it -am verify builds it in the reactor)");
        }
        return jar.toAbsolutePath();
    }
}
