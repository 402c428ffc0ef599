package io.blockscope.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A command run to its end (a tool: promtool, bash, keytool, the agent's launcher), with what it printed. */
public final class Command {

    /** Exit code and combined stdout and stderr of one run. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private Command() {}

    /**
     * Runs {@code command} in {@code dir} (null: the test's working directory) with no input; fails when it
     * is still running after {@code timeout}, and kills it then.
     */
    public static Result run(List<String> command, Path dir, Duration timeout) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            if (dir != null) {
                builder.directory(dir.toFile());
            }
            Process process = builder.start();
            process.getOutputStream().close();
            // Read while it runs: a command that fills the pipe would otherwise never end.
            CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
                try {
                    return process.getInputStream().readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError(
                            String.join(" ", command) + " did not finish in " + timeout.toSeconds() + " s");
                }
                return new Result(process.exitValue(), new String(output.get(), StandardCharsets.UTF_8));
            } finally {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (ExecutionException e) {
            throw new AssertionError("cannot read what " + command + " printed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + command, e);
        }
    }
}
