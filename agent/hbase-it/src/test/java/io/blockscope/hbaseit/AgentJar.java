package io.blockscope.hbaseit;

import java.nio.file.Files;
import java.nio.file.Path;

/** The built blockscope agent jar these tests attach. */
final class AgentJar {

    private AgentJar() {}

    /**
     * {@code -Dblockscope.agent.jar=...} (the build passes {@code ../${build.subdir}/blockscope-agent.jar}),
     * else {@code ../target/blockscope-agent.jar}. Fails with how to build it when neither exists.
     */
    static Path locate() {
        String configured = System.getProperty("blockscope.agent.jar");
        if (configured != null && Files.isRegularFile(Path.of(configured))) {
            return Path.of(configured).toAbsolutePath();
        }
        Path fallback = Path.of("..", "target", "blockscope-agent.jar");
        if (Files.isRegularFile(fallback)) {
            return fallback.toAbsolutePath();
        }
        throw new IllegalStateException("the blockscope agent jar is not built (looked at " + configured + " and "
                + fallback.toAbsolutePath() + "). Build it first: mvn -pl agent -am package -DskipTests"
                + " (add -Dbuild.subdir=... to both builds if you use one), or pass -Dblockscope.agent.jar=PATH");
    }
}
