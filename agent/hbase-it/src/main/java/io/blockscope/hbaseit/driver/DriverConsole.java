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
 */
final class DriverConsole {

    static final String PREFIX = "blockscope-driver ";

    private final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    /** Prints the checkpoint and blocks until the test says to go on. */
    void checkpoint(String name, Fields fields) throws IOException {
        StringBuilder line = new StringBuilder(PREFIX).append("checkpoint=").append(name);
        fields.values.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        System.out.println(line);
        System.out.flush();
        if (in.readLine() == null) {
            throw new IOException("test closed the driver's input at checkpoint " + name);
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
