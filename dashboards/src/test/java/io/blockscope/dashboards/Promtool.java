package io.blockscope.dashboards;

import io.blockscope.testsupport.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs promtool (Debian's 2.x by default, or the one of another {@link PrometheusVersion}) and captures what it says. */
final class Promtool {

    private Promtool() {}

    static Command.Result run(Path workDir, String... args) {
        return run(PrometheusVersion.V2, workDir, args);
    }

    static Command.Result run(PrometheusVersion version, Path workDir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(version.promtool().toString());
        command.addAll(List.of(args));
        return Command.run(command, workDir, Duration.ofSeconds(60));
    }
}
