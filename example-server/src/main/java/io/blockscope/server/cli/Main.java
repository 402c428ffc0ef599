package io.blockscope.server.cli;

import io.blockscope.server.config.ConfigFileDefaults;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Entry point of the example server jar: {@code load}, {@code serve} and {@code pe}. */
@Command(
        name = "blockscope-example-server",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        subcommands = {LoadCommand.class, ServeCommand.class, PeCommand.class, CommandLine.HelpCommand.class},
        description = {
            "An HBase-style storage server with the HBASE-11425 offheap read path, and its PerformanceEvaluation tool. "
                    + "Every command takes --config FILE: a properties file of option defaults (flags win).",
            ""
        })
public final class Main implements Runnable {

    /** Exit status of bad usage or bad configuration. */
    static final int USAGE = 2;
    /** Exit status of a failure at run time (I/O, a leak found by pe). */
    static final int FAILURE = 1;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: load, serve or pe");
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs one command line; returns the exit status. */
    public static int execute(String... args) {
        // Jetty logs through SLF4J; with no provider on the class path SLF4J would print a
        // three-line warning at every start. Our own messages go to stderr directly.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler(Main::report);
        cli.setParameterExceptionHandler(Main::usageError);
        try {
            applyConfigFile(cli, args);
        } catch (IllegalArgumentException e) {
            cli.getErr().println("error: " + e.getMessage());
            return USAGE;
        }
        return cli.execute(args);
    }

    /** Installs the {@code --config} file as the default value provider of the subcommand being run. */
    private static void applyConfigFile(CommandLine cli, String[] args) {
        Path file = ConfigFileDefaults.findConfigArgument(args);
        if (file == null) {
            return;
        }
        for (String arg : args) {
            CommandLine sub = cli.getSubcommands().get(arg);
            if (sub != null) {
                sub.setDefaultValueProvider(ConfigFileDefaults.load(file, sub.getCommandSpec()));
                return;
            }
        }
    }

    /** A bad command line: the message and where to find the options, not the whole usage text. */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println("error: " + e.getMessage());
        String name = cli.getCommandSpec().qualifiedName();
        err.println("Run '" + name + " --help' for the options.");
        return USAGE;
    }

    /** Errors the user can fix get one line; anything else a stack trace too. */
    private static int report(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        PrintWriter err = cli.getErr();
        if (e instanceof IllegalArgumentException) {
            err.println("error: " + e.getMessage());
            return USAGE;
        }
        if (e instanceof IOException) {
            err.println("error: " + e.getMessage());
            return FAILURE;
        }
        err.println("error: " + e);
        e.printStackTrace(err);
        return FAILURE;
    }

    /** The version from the jar manifest (or "dev" when run from classes). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {
                "blockscope example server " + (version == null ? "dev" : version), "Java " + Runtime.version()
            };
        }
    }
}
