package io.blockscope.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code java -jar blockscope-agent.jar ARGS}: the built agent jar's launcher, run to its end. */
public final class AgentLauncher {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private AgentLauncher() {}

    /** Runs the launcher of the {@link AgentJar} on {@code java} with {@code args}; fails if it runs 120 s. */
    public static Command.Result run(Path java, String... args) {
        List<String> command =
                new ArrayList<>(List.of(java.toString(), "-jar", AgentJar.path().toString()));
        command.addAll(List.of(args));
        return Command.run(command, null, TIMEOUT);
    }

    /** {@code attach PID OPTIONS} on {@code java}; its output, failing on a non-zero exit. */
    public static String attach(Path java, long pid, String options) {
        Command.Result run = run(java, "attach", Long.toString(pid), options);
        if (!run.ok()) {
            throw new AssertionError("attach to " + pid + " exited " + run.exitCode() + "; output: " + run.output());
        }
        return run.output();
    }
}
