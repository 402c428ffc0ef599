package io.blockscope.exporter.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * A secret given by reference, so that it never appears in a {@code -javaagent} argument (which
 * {@code ps}, the JVM's input arguments over JMX and HBase's {@code /jmx} page show): {@code
 * KEY.file=PATH} reads the file's first line, {@code KEY.env=NAME} the environment variable. Error
 * messages name the option and the file or variable, never a byte of the content.
 */
public final class Secrets {

    private static final int MAX_FILE_BYTES = 64 * 1024;

    private Secrets() {}

    /**
     * The secret named by {@code fileKey} or {@code envKey} in {@code options}, or null when neither
     * is set.
     *
     * @throws IllegalArgumentException when both are set, or the file or variable is missing or empty
     */
    public static String read(Map<String, String> options, String fileKey, String envKey, Map<String, String> env) {
        String file = options.get(fileKey);
        String variable = options.get(envKey);
        if (file != null && variable != null) {
            throw new IllegalArgumentException("give either " + fileKey + " or " + envKey + ", not both");
        }
        if (file != null) {
            return fromFile(fileKey, file.trim());
        }
        if (variable != null) {
            String name = variable.trim();
            String value = env.get(name);
            if (value == null || value.trim().isEmpty()) {
                throw new IllegalArgumentException(envKey + " names the environment variable '" + name + "', which is "
                        + (value == null ? "not set" : "empty") + " in this process");
            }
            return value.trim();
        }
        return null;
    }

    private static String fromFile(String key, String file) {
        Path path = Paths.get(file);
        byte[] bytes;
        try {
            if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
                throw new IllegalArgumentException(
                        key + " " + path.toAbsolutePath() + " is not a readable file; give the path of a file holding"
                                + " the secret on its first line, readable by the JVM's user");
            }
            if (Files.size(path) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(key + " " + path.toAbsolutePath() + " is larger than "
                        + MAX_FILE_BYTES + " bytes; it should hold one line");
            }
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new IllegalArgumentException(key + " " + path.toAbsolutePath() + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        String line = (newline < 0 ? text : text.substring(0, newline)).trim();
        if (line.isEmpty()) {
            throw new IllegalArgumentException(
                    key + " " + path.toAbsolutePath() + " is empty; put the secret on its first line");
        }
        return line;
    }
}
