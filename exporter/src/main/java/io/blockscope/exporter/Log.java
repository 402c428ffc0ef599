package io.blockscope.exporter;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exporter's only log: one line per message on stderr, prefixed {@code [blockscope]}.
 *
 * <p>A javaagent must not depend on the host's logging framework (it may have none, or one that is
 * configured to drop everything), so messages go straight to {@link System#err}. The stream is
 * looked up on every call, so a host (or a test) that swaps it sees our lines.
 */
public final class Log {

    private static final String PREFIX = "[blockscope] ";
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    private Log() {}

    public static void info(String message) {
        write("INFO " + message);
    }

    public static void warn(String message) {
        write("WARN " + message);
    }

    /**
     * Logs {@code message} (and the cause, if any, on the same line) the first time {@code key} is
     * seen, and ignores later calls with the same key: failures that repeat must not flood stderr.
     *
     * @return whether the line was written
     */
    public static boolean warnOnce(String key, String message, Throwable cause) {
        if (!SEEN.add(key)) {
            return false;
        }
        write("WARN " + message + (cause == null ? "" : " (" + describe(cause) + ")"));
        return true;
    }

    /** The throwable and its root cause on one line, e.g. {@code BindException: Address in use}. */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String top = oneLine(t);
        return root == t ? top : top + "; caused by " + oneLine(root);
    }

    private static String oneLine(Throwable t) {
        String name = t.getClass().getSimpleName();
        return t.getMessage() == null ? name : name + ": " + t.getMessage();
    }

    private static void write(String line) {
        PrintStream err = System.err;
        // One println call per message so that lines of concurrent writers do not interleave.
        err.println(PREFIX + line.replace('\n', ' '));
    }
}
