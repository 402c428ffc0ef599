package io.blockscope.dashboards;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs promtool (Debian's 2.x by default, or the one of another {@link PrometheusVersion}) and captures what it says. */
final class Promtool {

    /** Exit code and combined stdout/stderr of one run. */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    private Promtool() {}

    /** Finds a binary of the prometheus package; fails with what to install when it is missing. */
    static Path requireBinary(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Path debian = Path.of("/usr/bin", name);
        if (Files.isExecutable(debian)) {
            return debian;
        }
        throw new IllegalStateException(name + " not found on PATH: install Debian's prometheus package "
                + "(apt-get install prometheus) or run dashboards/setup.sh as root");
    }

    static Result run(Path workDir, String... args) {
        return run(PrometheusVersion.V2, workDir, args);
    }

    static Result run(PrometheusVersion version, Path workDir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(version.promtool().toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("promtool " + String.join(" ", args) + " did not finish in 60 s");
            }
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run promtool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running promtool", e);
        }
    }
}
