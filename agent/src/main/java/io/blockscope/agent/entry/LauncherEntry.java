package io.blockscope.agent.entry;

import java.lang.reflect.InvocationTargetException;

/**
 * The agent jar's {@code Main-Class} ({@code java -jar blockscope-agent.jar attach PID}, {@code
 * --help}, {@code --version}): compiled
 * for Java 8 so that an old {@code java} gets one clear line instead of an
 * {@code UnsupportedClassVersionError}; on 11+ it hands over, by name, to {@code
 * io.blockscope.agent.Launcher}, which also checks the target JVM's version before loading the agent.
 */
public final class LauncherEntry {

    static final String LAUNCHER = "io.blockscope.agent.Launcher";

    private LauncherEntry() {}

    public static void main(String[] args) throws Throwable {
        // --version from the jar's manifest works on any Java; without one (the classes outside a
        // jar) the launcher on 11+ answers from the exporter's build properties.
        String version = LauncherEntry.class.getPackage().getImplementationVersion();
        if (args.length == 1 && args[0].equals("--version") && version != null) {
            System.out.println("blockscope-agent " + version);
            return;
        }
        String refusal = JavaVersion.refusal(
                "attach",
                System.getProperty("java.specification.version"),
                System.getProperty("java.version"),
                "nothing was attached; run the launcher with the java of a JDK 11 or newer");
        if (refusal != null) {
            if (args.length == 1 && isHelp(args[0])) {
                // The full usage (with every option) lives in the Java 11 launcher: say what this Java can do.
                System.out.println("usage: java -jar blockscope-agent.jar attach <pid> [[host:]port[,key=value...]]");
                System.out.println("   or: java -javaagent:blockscope-agent.jar=[host:]port[,key=value...] ...");
                System.out.println("   or: java -jar blockscope-agent.jar --help | --version");
                System.out.println("The agent and the attach command need Java " + JavaVersion.REQUIRED
                        + " or newer (this is " + System.getProperty("java.version") + "); see docs/agent.md.");
                return;
            }
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

    /** {@code --help}, {@code -h} or {@code help}: usage on stdout, exit 0. */
    public static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h") || arg.equals("help");
    }
}
