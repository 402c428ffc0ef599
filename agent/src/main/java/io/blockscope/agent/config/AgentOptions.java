package io.blockscope.agent.config;

import io.blockscope.units.Units;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
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
    /** Measurements only: a platform MBean that removes and reinstalls the probes at run time. */
    public static final String PROBE_SWITCH = "probe.switch";

    /** Keys the agent owns, with their defaults (null: no default). */
    private static final Map<String, String> DEFAULTS = defaults();

    public static final int MAX_SITES = 100;
    public static final int MAX_TRACKED = 1 << 16;

    private AgentOptions() {}

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(HOST, null);
        d.put(PORT, null);
        d.put(CONFIG, null);
        d.put(PROFILE, "auto");
        d.put(LEAK_SAMPLE, "1024");
        // A tracked sample costs a stack capture; a busy server samples thousands a second at 1 in 1024.
        d.put(LEAK_RATE, "100");
        d.put(LEAK_AGE, "60s");
        // By bytes: a busy site gets tens of samples a minute, whatever the size of its copies.
        d.put(COPY_SAMPLE, "1MiB");
        d.put(COPY_JFR, "true");
        d.put(SITES, "20");
        d.put(TRACKED, "4096");
        d.put(PROBE_SWITCH, "false");
        return d;
    }

    /** The keys the agent itself owns. */
    public static Set<String> agentKeys() {
        return DEFAULTS.keySet();
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

        String hostPort = hostPort(merged);
        Map<String, String> exporterOptions = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : merged.entrySet()) {
            if (!DEFAULTS.containsKey(e.getKey())) {
                exporterOptions.put(e.getKey(), e.getValue());
            }
        }
        return new AgentConfig(
                hostPort,
                value(merged, PROFILE),
                intValue(merged, LEAK_SAMPLE, 0, Integer.MAX_VALUE, "1 in N checkouts tracked; 0 turns tracking off"),
                intValue(merged, LEAK_RATE, 0, 1_000_000, "sampled checkouts tracked a second at most; 0: no limit"),
                duration(merged, LEAK_AGE),
                copySampleBytes(merged) > 0
                        ? 0
                        : intValue(merged, COPY_SAMPLE, 0, Integer.MAX_VALUE, COPY_SAMPLE_MEANING),
                copySampleBytes(merged),
                bool(merged, COPY_JFR),
                intValue(merged, SITES, 1, MAX_SITES, "site label values per metric before 'other'"),
                intValue(merged, TRACKED, 16, MAX_TRACKED, "checkouts tracked at once"),
                bool(merged, PROBE_SWITCH),
                exporterOptions);
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
        Set<String> keys = new TreeSet<>(DEFAULTS.keySet());
        keys.addAll(exporterKeys);
        for (String key : keys) {
            String value = environment.get(environmentName(key));
            if (value != null) {
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
        if (!DEFAULTS.containsKey(key) && !exporterKeys.contains(key)) {
            throw new IllegalArgumentException("unknown " + what + " '" + key + "'; accepted: "
                    + String.join(", ", DEFAULTS.keySet())
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
        return options.getOrDefault(key, DEFAULTS.get(key));
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
