package io.blockscope.agent.entry;

import java.lang.reflect.InvocationTargetException;

/**
 * The agent jar's {@code Main-Class} ({@code java -jar blockscope-agent.jar attach PID}): compiled
 * for Java 8 so that an old {@code java} gets one clear line instead of an
 * {@code UnsupportedClassVersionError}; on 11+ it hands over, by name, to {@code
 * io.blockscope.agent.Launcher}, which also checks the target JVM's version before loading the agent.
 */
public final class LauncherEntry {

    static final String LAUNCHER = "io.blockscope.agent.Launcher";

    private LauncherEntry() {}

    public static void main(String[] args) throws Throwable {
        String refusal = JavaVersion.refusal(
                "attach",
                System.getProperty("java.specification.version"),
                System.getProperty("java.version"),
                "nothing was attached; run the launcher with the java of a JDK 11 or newer");
        if (refusal != null) {
            System.err.println(refusal);
            return;
        }
        try {
            Class.forName(LAUNCHER).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            // The launcher's own failure (it has printed why): keep its exception, so java exits with 1.
            throw e.getCause();
        }
    }
}
