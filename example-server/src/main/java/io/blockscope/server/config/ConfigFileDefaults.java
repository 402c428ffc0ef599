package io.blockscope.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Option defaults from a {@code --config} file: a Java properties file whose keys are long option
 * names without the dashes ({@code deploy=cbc-offheap}, {@code l2-size=2g}). A key may be prefixed
 * with its command ({@code serve.port=8080}) so one file can configure several commands; prefixed
 * keys of other commands are ignored. Flags on the command line win over the file.
 *
 * <p>Unknown keys are errors, not silently ignored: a typo in a config file should not quietly run
 * a benchmark with the wrong cache.
 */
public final class ConfigFileDefaults implements CommandLine.IDefaultValueProvider {

    private final Path file;
    private final Properties properties;
    private final String command;

    private ConfigFileDefaults(Path file, Properties properties, String command) {
        this.file = file;
        this.properties = properties;
        this.command = command;
    }

    /** Loads {@code file} for subcommand {@code command} and checks every key against its options. */
    public static ConfigFileDefaults load(Path file, CommandSpec command) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("config file " + file + " does not exist");
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage());
        }
        ConfigFileDefaults defaults = new ConfigFileDefaults(file, p, command.name());
        defaults.validate(command);
        return defaults;
    }

    private void validate(CommandSpec spec) {
        Set<String> known = new TreeSet<>();
        for (OptionSpec option : spec.options()) {
            if (!option.usageHelp()
                    && !option.versionHelp()
                    && !option.longestName().equals("--config")) {
                known.add(bare(option.longestName()));
            }
        }
        Set<String> siblings = new TreeSet<>();
        if (spec.parent() != null) {
            siblings.addAll(spec.parent().subcommands().keySet());
        }
        List<String> problems = new ArrayList<>();
        for (String key : properties.stringPropertyNames()) {
            int dot = key.indexOf('.');
            String prefix = dot > 0 ? key.substring(0, dot) : null;
            if (prefix != null && siblings.contains(prefix)) {
                if (prefix.equals(command) && !known.contains(key.substring(dot + 1))) {
                    problems.add("'" + key + "' is not an option of " + command);
                }
                continue;
            }
            if (!known.contains(key)) {
                problems.add("'" + key + "' is not an option of " + command
                        + " (prefix it with the command it belongs to, e.g. pe." + key + ", or remove it)");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("config file " + file + ": " + String.join("; ", problems)
                    + ". Options of " + command + ": " + String.join(", ", known));
        }
    }

    @Override
    public @Nullable String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option)) {
            return null;
        }
        String key = bare(option.longestName());
        String value = properties.getProperty(command + "." + key);
        if (value == null) {
            value = properties.getProperty(key);
        }
        return value == null ? null : value.trim();
    }

    private static String bare(String optionName) {
        int start = 0;
        while (start < optionName.length() && optionName.charAt(start) == '-') {
            start++;
        }
        return optionName.substring(start);
    }

    /** The value of {@code --config FILE} or {@code --config=FILE} in raw arguments, or null. */
    public static @Nullable Path findConfigArgument(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                return null;
            }
            if (args[i].equals("--config") && i + 1 < args.length) {
                return Path.of(args[i + 1]);
            }
            if (args[i].startsWith("--config=")) {
                return Path.of(args[i].substring("--config=".length()));
            }
        }
        return null;
    }
}
