package io.blockscope.hbaseit.driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The drivers' side of the line protocol with their test. At each checkpoint a driver prints
 *
 * <pre>blockscope-driver checkpoint=NAME key=value key=value ...</pre>
 *
 * <p>on stdout (values never contain spaces) and waits for one line on stdin before it goes on, so
 * the test can scrape the agent while the driver's state is frozen. End of input ends the driver.
 *
 * <p>The agent finishes its start on its own thread after {@code premain}; a checkpoint waits for
 * that start to end (its state property no longer {@code starting}, up to 60 s), so the test finds
 * every start line and the endpoint when it reads a checkpoint.
 */
final class DriverConsole {

    static final String PREFIX = "blockscope-driver ";

    private final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    /** Prints the checkpoint and blocks until the test says to go on. */
    void checkpoint(String name, Fields fields) throws IOException {
        awaitAgentStart();
        StringBuilder line = new StringBuilder(PREFIX).append("checkpoint=").append(name);
        fields.values.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        System.out.println(line);
        System.out.flush();
        if (in.readLine() == null) {
            throw new IOException("test closed the driver's input at checkpoint " + name);
        }
    }

    private static void awaitAgentStart() {
        long began = System.nanoTime();
        while ("starting".equals(System.getProperty("blockscope.agent.state"))
                && System.nanoTime() - began < 60_000_000_000L) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Ordered checkpoint fields. */
    static final class Fields {
        private final Map<String, String> values = new LinkedHashMap<>();

        Fields put(String key, Object value) {
            String text = String.valueOf(value);
            if (key.contains(" ") || key.contains("=") || text.contains(" ")) {
                throw new IllegalArgumentException("checkpoint field must not contain spaces: " + key + "=" + text);
            }
            values.put(key, text);
            return this;
        }
    }
}
