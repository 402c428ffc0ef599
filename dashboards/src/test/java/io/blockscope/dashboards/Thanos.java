package io.blockscope.dashboards;

import io.blockscope.testsupport.ChildProcess;
import io.blockscope.testsupport.FreePort;
import io.blockscope.testsupport.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The Thanos binary ({@code .ci/thanos.sh} builds v0.42.5 and prints {@value #VARIABLE}) and its components
 * as the tests run them: each on two loopback ports of its own (HTTP, gRPC), returned once {@code /-/ready}
 * answers 200. Like {@link PrometheusVersion#V3}: without the variable a test is skipped, saying how to get
 * the binary, but on CI ({@code CI=true}) it fails, so a broken build step cannot become a silent skip.
 */
public final class Thanos {

    public static final String VARIABLE = "BLOCKSCOPE_THANOS";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Thanos() {}

    /** The binary named by {@value #VARIABLE} in {@code env}; skips (or on CI fails) when it is not set. */
    public static Path binary(Map<String, String> env) {
        String file = env.get(VARIABLE);
        if (file == null || file.isBlank()) {
            String reason = "Thanos not available: " + VARIABLE + " is not set; run 'export \"$(bash .ci/thanos.sh"
                    + " | tail -1)\"' (builds Thanos v0.42.5 with the Go toolchain, once, into ~/.cache/blockscope)";
            if (PrometheusVersion.onCi(env.get("CI"))) {
                throw new IllegalStateException(
                        "CI=true but " + reason + ". CI must run the Thanos tests: .ci/test exports it.");
            }
            System.out.println("SKIPPED (Thanos): " + reason);
            Assumptions.abort(reason);
        }
        Path binary = Path.of(file);
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(
                    VARIABLE + "=" + file + " is not an executable: point it at what .ci/thanos.sh prints");
        }
        return binary;
    }

    /** A running component: its process and the host:port of its HTTP API and of its gRPC StoreAPI. */
    public record Component(String name, ChildProcess process, String http, String grpc) implements AutoCloseable {

        /** Waits for {@code /-/ready}; fails with the component's output when it exits or stays unready. */
        public Component awaitReady(Duration timeout) throws InterruptedException {
            if (!Poll.until(timeout, Duration.ofMillis(200), () -> !process.isAlive() || ready(http))) {
                throw new AssertionError(name + " not ready in " + timeout + ":\n" + process.tail(40));
            }
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited:\n" + process.tail(40));
            }
            return this;
        }

        @Override
        public void close() {
            process.close();
        }
    }

    /** Starts {@code thanos <command> <args>} with its HTTP and gRPC listeners on fresh loopback ports. */
    public static Component start(Path binary, String name, String command, List<String> args, Path log)
            throws IOException {
        String http = "127.0.0.1:" + FreePort.pick();
        String grpc = "127.0.0.1:" + FreePort.pick();
        List<String> line = new ArrayList<>(List.of(
                binary.toString(), command, "--http-address=" + http, "--grpc-address=" + grpc, "--log.level=warn"));
        line.addAll(args);
        return new Component(name, ChildProcess.start(line, Map.of(), log), http, grpc);
    }

    /** True when {@code http}'s {@code /-/ready} answers 200 (Thanos, Prometheus and Alertmanager have it). */
    static boolean ready(String http) {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(URI.create("http://" + http + "/-/ready"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
