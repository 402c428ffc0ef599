package io.blockscope.agent.config;

import io.blockscope.units.Units;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses the agent argument ({@code [host:]port[,key=value...]}), an optional properties file
 * ({@code config=path}) and {@code BLOCKSCOPE_<KEY>} environment variables into an
 * {@link AgentConfig}. Precedence, lowest first: defaults, config file, agent argument,
 * environment, so an operator can override a shared {@code *_OPTS} line per process.
 *
 * <p>Every error is an {@link IllegalArgumentException} with one line that names the option and
 * what it accepts.
 */
public final class AgentOptions {

    public static final String HOST = "host";
    public static final String PORT = "port";
    public static final String CONFIG = "config";
    public static final String PROFILE = "profile";
    public static final String LEAK_SAMPLE = "leak.sample";
    public static final String LEAK_RATE = "leak.rate";
    public static final String LEAK_AGE = "leak.age";
    public static final String COPY_SAMPLE = "copy.sample";
    public static final String COPY_JFR = "copy.jfr";
    public static final String SITES = "sites";
    public static final String TRACKED = "tracked";
    public static final String TABLES = "tables";
    public static final String USERS = "users";
    /**
     * Not an option of this agent: the run-time probe switch of overhead measurements is in the
     * diagnostics jar only, which registers it without being asked. Named so its error can say so.
     */
    static final String PROBE_SWITCH = "probe.switch";

    /** Keys the agent owns; their defaults are {@link AgentConfig.Builder}'s. */
    private static final Set<String> KEYS = new LinkedHashSet<>(List.of(
            HOST,
            PORT,
            CONFIG,
            PROFILE,
            LEAK_SAMPLE,
            LEAK_RATE,
            LEAK_AGE,
            COPY_SAMPLE,
            COPY_JFR,
            SITES,
            TRACKED,
            TABLES,
            USERS));

    public static final int MAX_SITES = AgentConfig.MAX_SITES;
    public static final int MAX_TRACKED = AgentConfig.MAX_TRACKED;

    private AgentOptions() {}

    /** The keys the agent itself owns. */
    public static Set<String> agentKeys() {
        return Collections.unmodifiableSet(KEYS);
    }

    /** The environment variable that overrides {@code key}: {@code leak.sample} -> {@code BLOCKSCOPE_LEAK_SAMPLE}. */
    public static String environmentName(String key) {
        return "BLOCKSCOPE_" + key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /**
     * Builds the configuration.
     *
     * @param argument     the agent argument, possibly null or empty
     * @param environment  the process environment (only {@code BLOCKSCOPE_*} entries are read)
     * @param exporterKeys the keys {@code ExporterConfig} accepts, passed through to it
     */
    public static AgentConfig parse(String argument, Map<String, String> environment, Set<String> exporterKeys) {
        Map<String, String> fromArgument = splitArgument(argument, exporterKeys);
        Map<String, String> fromEnvironment = fromEnvironment(environment, exporterKeys);

        Map<String, String> merged = new LinkedHashMap<>();
        String configFile = fromEnvironment.getOrDefault(CONFIG, fromArgument.get(CONFIG));
        if (configFile != null) {
            merged.putAll(readFile(configFile, exporterKeys));
        }
        merged.putAll(fromArgument);
        merged.putAll(fromEnvironment);

        AgentConfig.Builder config = AgentConfig.builder().hostPort(hostPort(merged));
        for (Map.Entry<String, String> e : merged.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                config.exporterOption(e.getKey(), e.getValue());
            }
        }
        String profile = merged.get(PROFILE);
        if (profile != null) {
            config.profile(profile);
        }
        if (merged.containsKey(LEAK_SAMPLE)) {
            config.leakSample(intValue(
                    merged, LEAK_SAMPLE, 0, Integer.MAX_VALUE, "1 in N checkouts tracked; 0 turns tracking off"));
        }
        if (merged.containsKey(LEAK_RATE)) {
            config.leakRate(intValue(
                    merged,
                    LEAK_RATE,
                    0,
                    AgentConfig.MAX_LEAK_RATE,
                    "sampled checkouts tracked a second at most; 0: no limit"));
        }
        if (merged.containsKey(LEAK_AGE)) {
            config.leakAge(duration(merged, LEAK_AGE));
        }
        if (merged.containsKey(COPY_SAMPLE)) {
            long bytes = copySampleBytes(merged);
            if (bytes > 0) {
                config.copySampleBytes(bytes);
            } else {
                config.copySample(intValue(merged, COPY_SAMPLE, 0, Integer.MAX_VALUE, COPY_SAMPLE_MEANING));
            }
        }
        if (merged.containsKey(COPY_JFR)) {
            config.copyJfr(bool(merged, COPY_JFR));
        }
        if (merged.containsKey(SITES)) {
            config.sites(intValue(merged, SITES, 1, MAX_SITES, "site label values per metric before 'other'"));
        }
        if (merged.containsKey(TRACKED)) {
            config.tracked(
                    intValue(merged, TRACKED, AgentConfig.MIN_TRACKED, MAX_TRACKED, "checkouts tracked at once"));
        }
        if (merged.containsKey(TABLES)) {
            config.tables(intValue(merged, TABLES, 0, AgentConfig.MAX_CONTEXT, "table label values before 'other'"));
        }
        if (merged.containsKey(USERS)) {
            config.users(intValue(merged, USERS, 0, AgentConfig.MAX_CONTEXT, "user label values before 'other'"));
        }
        return config.build();
    }

    /** Splits {@code [host:]port,key=value,...}; the first element may be the bare host:port. */
    static Map<String, String> splitArgument(String argument, Set<String> exporterKeys) {
        Map<String, String> options = new LinkedHashMap<>();
        if (argument == null || argument.isBlank()) {
            return options;
        }
        String[] parts = argument.split(",", -1);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                throw new IllegalArgumentException("empty option at position " + (i + 1) + " in '" + argument
                        + "'; expected [host:]port first, then key=value pairs separated by commas");
            }
            int eq = part.indexOf('=');
            if (eq < 0) {
                if (i != 0) {
                    throw new IllegalArgumentException("malformed option '" + part + "': expected key=value"
                            + " (only the first option may be a bare [host:]port)");
                }
                splitHostPort(part, options);
                continue;
            }
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            checkKey(key, exporterKeys, "option");
            if (options.containsKey(key)) {
                throw new IllegalArgumentException("option '" + key + "' is given twice");
            }
            options.put(key, value);
        }
        return options;
    }

    private static void splitHostPort(String hostPort, Map<String, String> options) {
        int colon = hostPort.lastIndexOf(':');
        String port = colon < 0 ? hostPort : hostPort.substring(colon + 1);
        if (colon >= 0) {
            String host = hostPort.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty()) {
                throw new IllegalArgumentException("malformed [host:]port '" + hostPort + "': the host is empty");
            }
            options.put(HOST, host);
        }
        options.put(PORT, port);
    }

    private static Map<String, String> fromEnvironment(Map<String, String> environment, Set<String> exporterKeys) {
        Map<String, String> options = new LinkedHashMap<>();
        Set<String> keys = new TreeSet<>(KEYS);
        keys.add(PROBE_SWITCH); // so its environment variable gets the same one-line error
        keys.addAll(exporterKeys);
        for (String key : keys) {
            String value = environment.get(environmentName(key));
            if (value != null) {
                checkKey(key, exporterKeys, "environment variable");
                options.put(key, value.trim());
            }
        }
        return options;
    }

    private static Map<String, String> readFile(String file, Set<String> exporterKeys) {
        Path path = Path.of(file);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "config file '" + file + "' cannot be read (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                            + "); config= takes the path of a properties file");
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            checkKey(key, exporterKeys, "key in config file " + file + ":");
            if (key.equals(CONFIG)) {
                throw new IllegalArgumentException(
                        "config file " + file + " sets config=; a config file cannot include another");
            }
            options.put(key, properties.getProperty(key).trim());
        }
        return options;
    }

    private static void checkKey(String key, Set<String> exporterKeys, String what) {
        if (key.equals(PROBE_SWITCH)) {
            throw new IllegalArgumentException(PROBE_SWITCH + " is not an option of the agent: the probe switch of"
                    + " overhead measurements is only in the diagnostics jar, blockscope-agent-diagnostics.jar,"
                    + " which registers it without an option; drop " + PROBE_SWITCH + " (docs/benchmarks.md)");
        }
        if (!KEYS.contains(key) && !exporterKeys.contains(key)) {
            throw new IllegalArgumentException("unknown " + what + " '" + key + "'; accepted: "
                    + String.join(", ", KEYS)
                    + (exporterKeys.isEmpty() ? "" : "; exporter: " + String.join(", ", new TreeSet<>(exporterKeys))));
        }
    }

    private static String hostPort(Map<String, String> options) {
        String port = options.get(PORT);
        if (port == null) {
            throw new IllegalArgumentException(
                    "no port: give [host:]port first (e.g. -javaagent:blockscope-agent.jar=9404),"
                            + " or port= in the config file, or " + environmentName(PORT));
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 0 || number > 65535) {
            throw new IllegalArgumentException(
                    "malformed port '" + port + "': expected 0..65535 (0 picks a free port)");
        }
        String host = options.get(HOST);
        if (host == null) {
            return String.valueOf(number);
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + number;
    }

    private static String value(Map<String, String> options, String key) {
        return options.get(key);
    }

    private static final String COPY_SAMPLE_MEANING = "N attributes 1 in N copies to a site, 0 turns it off;"
            + " a size such as 1MiB or 256KiB attributes one copy per that many bytes copied, on average";

    /** {@code copy.sample} as a byte size ({@code 1MiB}): bytes per sample; 0 when it is a count (an integer). */
    private static long copySampleBytes(Map<String, String> options) {
        String text = value(options, COPY_SAMPLE);
        if (text.trim().matches("-?\\d+")) {
            return 0;
        }
        long bytes;
        try {
            bytes = Units.bytes(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed " + COPY_SAMPLE + " '" + text + "': " + COPY_SAMPLE_MEANING
                    + " (" + e.getMessage() + ")");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("malformed " + COPY_SAMPLE + " '" + text + "': " + COPY_SAMPLE_MEANING);
        }
        return bytes;
    }

    private static int intValue(Map<String, String> options, String key, int min, int max, String meaning) {
        String text = value(options, key);
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("malformed " + key + " '" + text + "': expected an integer in " + min + ".."
                + max + " (" + meaning + ")");
    }

    private static boolean bool(Map<String, String> options, String key) {
        String text = value(options, key);
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("malformed " + key + " '" + text + "': expected true or false");
    }

    /** A positive duration; a bare number is seconds. */
    static Duration duration(Map<String, String> options, String key) {
        String text = value(options, key);
        try {
            Duration d = Units.duration(text.trim().matches("\\d+") ? text.trim() + "s" : text);
            if (!d.isZero()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // reported below, in the agent's words
        }
        throw new IllegalArgumentException(
                "malformed " + key + " '" + text + "': expected a positive duration such as 500ms, 30s, 5m or 1h");
    }
}
