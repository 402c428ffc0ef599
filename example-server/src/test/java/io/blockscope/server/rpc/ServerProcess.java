package io.blockscope.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.JavaCommand;
import io.blockscope.testsupport.ProcessThreads;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: {@code serve} in a JVM of its own (the test class path, so test-only filter classes
 * are on the server's class path), with the URL parsed from its {@code listening on} line.
 */
public final class ServerProcess implements AutoCloseable {

    private static final String LISTENING = "blockscope-example-server listening on ";

    private final ChildProcess process;
    private final URI uri;
    private final RpcClient client;

    private ServerProcess(ChildProcess process, URI uri) {
        this.process = process;
        this.uri = uri;
        this.client = new RpcClient(uri, Duration.ofSeconds(30));
    }

    /** Starts {@code serve} with {@code args} and waits (up to a minute) for it to listen. */
    public static ServerProcess start(Path workDirectory, String heap, String... args)
            throws IOException, InterruptedException {
        String[] serve = new String[args.length + 3];
        serve[0] = "serve";
        serve[1] = "--port";
        serve[2] = "0";
        System.arraycopy(args, 0, serve, 3, args.length);
        ChildProcess process = JavaCommand.onTestJvm()
                .option("-Xmx" + heap)
                .classPath(JavaCommand.testClassPath())
                .main("io.blockscope.server.cli.Main", serve)
                .log(Files.createTempFile(workDirectory, "server-", ".log"))
                .start();
        boolean listening = false;
        try {
            String line = process.awaitLine(l -> l.startsWith(LISTENING), Duration.ofSeconds(60));
            ServerProcess server = new ServerProcess(
                    process, URI.create(line.substring(LISTENING.length()).trim()));
            listening = true;
            return server;
        } finally {
            if (!listening) {
                process.close(); // a server that never listened is not left running
            }
        }
    }

    public URI uri() {
        return uri;
    }

    public RpcClient client() {
        return client;
    }

    /** The server JVM's thread count, from its /proc entry. */
    public int threads() throws IOException {
        return ProcessThreads.count(process.pid());
    }

    /** The server's threads outside the named pools: see {@link ProcessThreads#outside}. */
    public int threadsOutside(String... pools) throws IOException {
        return ProcessThreads.outside(process.pid(), pools);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** What the server wrote to stderr (its log). */
    public String log() {
        return String.join("\n", process.err());
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
    public void close() {
        process.close();
    }
}
