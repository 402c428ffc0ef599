package io.blockscope.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** The built blockscope agent jar that tests run child JVMs with. */
public final class AgentJar {

    /** The system property the module poms set to the jar the agent module packaged. */
    public static final String PROPERTY = "blockscope.agent.jar";

    private AgentJar() {}

    /**
     * {@code -Dblockscope.agent.jar=...} (the poms pass the agent module's {@code ${build.subdir}/blockscope-agent.jar}),
     * else {@code ../target/blockscope-agent.jar}. Fails with how to build it when neither exists.
     */
    public static Path path() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && Files.isRegularFile(Path.of(configured))) {
            return Path.of(configured).toAbsolutePath();
        }
        Path fallback = Path.of("..", "target", "blockscope-agent.jar");
        if (Files.isRegularFile(fallback)) {
            return fallback.toAbsolutePath();
        }
        throw new IllegalStateException("the blockscope agent jar is not built (looked at " + configured + " and "
                + fallback.toAbsolutePath() + "). Build it first: mvn -pl agent -am package -DskipTests"
                + " (add -Dbuild.subdir=... to both builds if you use one), or pass -D" + PROPERTY + "=PATH");
    }
}
