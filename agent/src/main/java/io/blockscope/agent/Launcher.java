package io.blockscope.agent;

import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.config.AgentOptions;
import io.blockscope.agent.entry.JavaVersion;
import io.blockscope.agent.entry.LauncherEntry;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.cli.CommandFailed;
import io.blockscope.exporter.self.SelfMetrics;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Properties;

/**
 * {@code java -jar blockscope-agent.jar attach <pid> [options]} (and {@code --help}, {@code
 * --version}, which exit 0): loads the agent into a running JVM
 * with the Attach API. The options are checked here first, so a typo is reported in the operator's
 * terminal rather than only in the target's stderr; then the target's own report (the
 * {@code blockscope.agent.state} and {@code blockscope.agent.port} system properties) is printed.
 *
 * <p>The target must run Java 11 or newer: its version is read through the Attach API before the
 * agent is loaded, and an older target is left alone with one line saying so (exit status 1).
 *
 * <p>{@link #run} returns 0 attached and running, 1 attached but the agent disabled itself (or the
 * target too old for it), 2 usage
 * or option error, 3 the attach itself failed. The process exits 0 or 1: {@code main} never ends
 * the JVM (see {@link CommandFailed}), and the printed reason says which failure it was.
 */
public final class Launcher {

    private Launcher() {}

    public static void main(String[] args) {
        CommandFailed.check("blockscope attach", run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && LauncherEntry.isHelp(args[0])) {
            usage(out);
            return 0;
        }
        if (args.length == 1 && args[0].equals("--version")) {
            out.println("blockscope-agent " + version());
            return 0;
        }
        if (args.length == 0) {
            err.println("blockscope: no command given");
            usage(err);
            return 2;
        }
        if (!args[0].equals("attach")) {
            err.println("blockscope: unknown command '" + args[0] + "'; the commands are attach, --help and --version");
            usage(err);
            return 2;
        }
        if (args.length < 2 || args.length > 3) {
            err.println("blockscope: attach takes a process id and, optionally, the agent's options");
            usage(err);
            return 2;
        }
        String pid = args[1];
        if (!pid.matches("\\d+")) {
            err.println("blockscope: '" + pid + "' is not a process id (see jps or pgrep java)");
            return 2;
        }
        String options = args.length == 3 ? args[2] : "";
        try {
            AgentConfig config = AgentOptions.parse(options, Map.of(), ExporterConfig.optionNames());
            ExporterConfig.parse(config.hostPort(), config.exporterOptions());
        } catch (IllegalArgumentException e) {
            // The target's own environment may still give what is missing here (BLOCKSCOPE_PORT), so a
            // missing port is left for the target to judge; anything else is wrong wherever it runs.
            if (!e.getMessage().startsWith("no port")) {
                err.println("blockscope: " + e.getMessage());
                return 2;
            }
        }
        try {
            return Attacher.attach(pid, agentJar(), options, out, err);
        } catch (NoClassDefFoundError e) {
            err.println("blockscope: this Java runtime has no Attach API (module jdk.attach): run the launcher with the"
                    + " java of a full JDK, ideally the target's own: $JAVA_HOME/bin/java -jar blockscope-agent.jar attach "
                    + pid);
            return 3;
        }
    }

    private static void usage(PrintStream to) {
        to.println("usage: java -jar blockscope-agent.jar attach <pid> [[host:]port[,key=value...]]");
        to.println("   or: java -javaagent:blockscope-agent.jar=[host:]port[,key=value...] ...");
        to.println("   or: java -jar blockscope-agent.jar --help | --version");
        to.println("attach loads the agent into the running JVM <pid> (Java 11+, same user) and prints its state.");
        to.println("options: " + String.join(", ", AgentOptions.agentKeys()) + "; exporter: "
                + String.join(", ", new java.util.TreeSet<>(ExporterConfig.optionNames())));
        to.println("each option may also come from a config file (config=PATH) or the environment"
                + " (BLOCKSCOPE_LEAK_SAMPLE=64); see docs/agent.md and docs/exporter.md");
    }

    /** The jar manifest's Implementation-Version, else (classes outside the jar) the exporter's build version. */
    static String version() {
        String version = Launcher.class.getPackage().getImplementationVersion();
        return version != null ? version : SelfMetrics.version();
    }

    private static String agentJar() {
        try {
            return new File(Launcher.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .getAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the agent jar", e);
        }
    }

    /** Kept apart so that a runtime without jdk.attach fails with NoClassDefFoundError in one place. */
    static final class Attacher {
        private Attacher() {}

        static int attach(String pid, String jar, String options, PrintStream out, PrintStream err) {
            com.sun.tools.attach.VirtualMachine vm;
            try {
                vm = com.sun.tools.attach.VirtualMachine.attach(pid);
            } catch (Exception e) {
                err.println("blockscope: cannot attach to " + pid + ": " + e.getMessage()
                        + " (is it a running JVM of the same user? attach needs the same user, and a JVM started"
                        + " without -XX:+DisableAttachMechanism)");
                return 3;
            }
            try {
                Properties target = vm.getSystemProperties();
                String refusal = JavaVersion.refusal(
                        "attach",
                        target.getProperty("java.specification.version"),
                        target.getProperty("java.version"),
                        "the agent was not loaded into " + pid + ", which runs normally");
                if (refusal != null) {
                    err.println(refusal);
                    return 1;
                }
                vm.loadAgent(jar, options);
                Properties properties = vm.getSystemProperties();
                String state = properties.getProperty(AgentLog.STATE_PROPERTY, "unknown (see the target's stderr)");
                String port = properties.getProperty("blockscope.agent.port");
                out.println("blockscope agent attached to " + pid + ": " + state
                        + (port != null ? "; metrics on port " + port : ""));
                return state.startsWith("disabled") ? 1 : 0;
            } catch (Exception e) {
                err.println("blockscope: attached to " + pid + " but loading the agent failed: " + e
                        + " (the target's stderr has the agent's own message)");
                return 3;
            } finally {
                try {
                    vm.detach();
                } catch (Exception ignored) {
                    // the target is gone or closed the connection; nothing to release
                }
            }
        }
    }
}
