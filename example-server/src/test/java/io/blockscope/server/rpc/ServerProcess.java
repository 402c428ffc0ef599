package io.blockscope.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: {@code serve} in a JVM of its own (the test class path, so test-only filter classes
 * are on the server's class path), with the URL parsed from its {@code listening on} line.
 */
public final class ServerProcess implements AutoCloseable {

    private static final String LISTENING = "blockscope-example-server listening on ";

    private final Process process;
    private final URI uri;
    private final Path log;
    private final RpcClient client;

    private ServerProcess(Process process, URI uri, Path log) {
        this.process = process;
        this.uri = uri;
        this.log = log;
        this.client = new RpcClient(uri, Duration.ofSeconds(30));
    }

    /** Starts {@code serve} with {@code args} and waits (up to a minute) for it to listen. */
    public static ServerProcess start(Path workDirectory, String heap, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add("io.blockscope.server.cli.Main");
        command.add("serve");
        command.add("--port");
        command.add("0");
        command.addAll(List.of(args));
        Path log = Files.createTempFile(workDirectory, "server-", ".log");
        Process process =
                new ProcessBuilder(command).redirectError(log.toFile()).start();
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> readListeningLine(process));
        try {
            String url = line.get(60, TimeUnit.SECONDS);
            if (url == null) {
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IOException("server exited (" + exitCode(process) + ") before listening; its stderr:\n"
                        + Files.readString(log));
            }
            return new ServerProcess(process, URI.create(url), log);
        } catch (IOException e) {
            process.destroyForcibly();
            throw e;
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException(
                    "server did not print its listening line in time; its stderr:\n" + Files.readString(log), e);
        }
    }

    private static String readListeningLine(Process process) {
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(LISTENING)) {
                    Thread drain = new Thread(() -> drain(out), "server-stdout");
                    drain.setDaemon(true);
                    drain.start();
                    return line.substring(LISTENING.length()).trim();
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // keep the pipe from filling up
            }
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    private static String exitCode(Process process) {
        return process.isAlive() ? "still running" : "exit code " + process.exitValue();
    }

    public URI uri() {
        return uri;
    }

    public RpcClient client() {
        return client;
    }

    /** The server JVM's thread count, from its /proc entry. */
    public int threads() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring("Threads:".length()).trim());
            }
        }
        throw new IOException("no Threads: line for process " + process.pid());
    }

    /**
     * The JVM's threads whose names contain none of {@code pools} (from /proc/PID/task/N/comm,
     * names cut at 15 characters): what is left when the thread pools that grow and shrink with load
     * (Jetty's request pool, the JIT's compiler threads) are set aside, so a count that grows is a leak.
     */
    public int threadsOutside(String... pools) throws IOException {
        int count = 0;
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                boolean pooled = false;
                for (String pool : pools) {
                    pooled |= name.contains(pool);
                }
                count += pooled ? 0 : 1;
            }
        }
        return count;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String log() throws IOException {
        return Files.readString(log);
    }

    public JsonNode status() throws IOException {
        return client.status();
    }

    /**
     * Waits until the server holds no block reference (a response's blocks are released by Jetty's
     * write callback, which may run a moment after the client has read the last byte) and returns
     * the count it saw last.
     */
    public long awaitNoOutstandingReferences() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long outstanding;
        do {
            outstanding = status().path("blockRefsOutstanding").asLong(-1);
            if (outstanding == 0) {
                return 0;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return outstanding;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
