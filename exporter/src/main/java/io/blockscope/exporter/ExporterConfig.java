package io.blockscope.exporter;

import io.blockscope.exporter.auth.Credentials;
import io.blockscope.exporter.auth.HashPassword;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.auth.PasswordSource;
import io.blockscope.exporter.auth.Secrets;
import io.blockscope.exporter.tls.TlsMaterial;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where and how the exporter serves: {@code [host:]port} plus the options named by {@link
 * #optionNames()}. Everything is checked (and TLS files loaded) in {@link #parse}, so a bad option
 * is one clear {@link IllegalArgumentException} at startup rather than a failure later.
 *
 * <p>Options (see docs/exporter.md):
 *
 * <ul>
 *   <li>{@code threads}: HTTP threads, {@value #MIN_THREADS}..{@value #MAX_THREADS}, default
 *       {@value #DEFAULT_THREADS};
 *   <li>{@code jfr}: {@code on} (default) reads GC events from JFR; {@code off} uses the GC MXBeans;
 *   <li>{@code tls.keystore} + {@code tls.keystore.password} (PKCS12), or {@code tls.cert} + {@code
 *       tls.key} (PEM); {@code tls.client.ca} (PEM CAs) additionally requires client certificates;
 *   <li>{@code auth.user} with {@code auth.password.hash} (see {@link PasswordHash}), or with
 *       {@code auth.password} in plaintext, accepted only together with {@code auth.plaintext=true}.
 * </ul>
 */
public final class ExporterConfig {

    public static final String THREADS = "threads";
    public static final String JFR = "jfr";
    public static final String TLS_KEYSTORE = "tls.keystore";
    public static final String TLS_KEYSTORE_PASSWORD = "tls.keystore.password";
    public static final String TLS_CERT = "tls.cert";
    public static final String TLS_KEY = "tls.key";
    public static final String TLS_CLIENT_CA = "tls.client.ca";
    public static final String AUTH_USER = "auth.user";
    public static final String AUTH_PASSWORD_HASH = "auth.password.hash";
    public static final String AUTH_PASSWORD = "auth.password";
    public static final String AUTH_PLAINTEXT = "auth.plaintext";
    /** Secrets by reference (file path or environment variable name), kept out of the agent argument. */
    public static final String AUTH_PASSWORD_FILE = "auth.password.file";

    public static final String AUTH_PASSWORD_ENV = "auth.password.env";
    public static final String TLS_KEYSTORE_PASSWORD_FILE = "tls.keystore.password.file";
    public static final String TLS_KEYSTORE_PASSWORD_ENV = "tls.keystore.password.env";

    /** Computed, so it names the class as it is called in whatever jar (relocated or not) we run from. */
    private static final String HASH_COMMAND = "java -cp JAR " + HashPassword.class.getName();

    static final int MIN_THREADS = 2;
    static final int MAX_THREADS = 32;
    static final int DEFAULT_THREADS = 4;

    private static final Set<String> OPTION_NAMES = Set.of(
            THREADS,
            JFR,
            TLS_KEYSTORE,
            TLS_KEYSTORE_PASSWORD,
            TLS_CERT,
            TLS_KEY,
            TLS_CLIENT_CA,
            AUTH_USER,
            AUTH_PASSWORD_HASH,
            AUTH_PASSWORD,
            AUTH_PLAINTEXT,
            AUTH_PASSWORD_FILE,
            AUTH_PASSWORD_ENV,
            TLS_KEYSTORE_PASSWORD_FILE,
            TLS_KEYSTORE_PASSWORD_ENV);
    /** Prefixes this class owns: an unknown key under them is a typo, not someone else's option. */
    private static final String[] OWNED_PREFIXES = {"tls.", "auth."};

    private final String host;
    private final int port;
    private final int threads;
    private final boolean jfr;
    private final TlsMaterial tls;
    private final Credentials credentials;

    private ExporterConfig(String host, int port, int threads, boolean jfr, TlsMaterial tls, Credentials credentials) {
        this.host = host;
        this.port = port;
        this.threads = threads;
        this.jfr = jfr;
        this.tls = tls;
        this.credentials = credentials;
    }

    /**
     * Parses {@code [host:]port} ({@code 9404}, {@code 127.0.0.1:9404}, {@code [::1]:9404}; port 0
     * picks a free port) and the options. Keys outside {@link #optionNames()} are left to the caller,
     * except under {@code tls.} and {@code auth.}, which are this class's own.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option and what it
     *     accepts
     */
    public static ExporterConfig parse(String hostPort, Map<String, String> options) {
        Map<String, String> opts = options == null ? Map.of() : options;
        for (String key : opts.keySet()) {
            for (String prefix : OWNED_PREFIXES) {
                if (key.startsWith(prefix) && !OPTION_NAMES.contains(key)) {
                    throw new IllegalArgumentException(
                            "unknown option '" + key + "'; the " + prefix + "* options are " + namesUnder(prefix));
                }
            }
        }
        String[] hp = splitHostPort(hostPort);
        int port = port(hp[1]);
        int threads = intOption(opts, THREADS, DEFAULT_THREADS, MIN_THREADS, MAX_THREADS);
        boolean jfr = onOff(opts, JFR, true);
        return new ExporterConfig(hp[0], port, threads, jfr, tls(opts), credentials(opts));
    }

    /** The option keys {@link #parse} reads. */
    public static Set<String> optionNames() {
        return OPTION_NAMES;
    }

    /** The address to bind, or null for all interfaces. */
    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int threads() {
        return threads;
    }

    public boolean jfrEnabled() {
        return jfr;
    }

    /** TLS material, or null for plain HTTP. */
    public TlsMaterial tls() {
        return tls;
    }

    /** Who may scrape, or null when no authentication is required. */
    public Credentials credentials() {
        return credentials;
    }

    /** A summary for logs: never contains a secret. */
    @Override
    public String toString() {
        return (tls == null ? "http" : "https") + "://" + (host == null ? "*" : host) + ":" + port
                + " threads=" + threads + " jfr=" + (jfr ? "on" : "off")
                + (tls != null && tls.clientTrustStore() != null ? " client-certificates=required" : "")
                + (credentials == null ? "" : " auth=" + credentials);
    }

    private static String[] splitHostPort(String hostPort) {
        String hint = "; give [host:]port, e.g. 9404, 127.0.0.1:9404 or [::1]:9404";
        if (hostPort == null || hostPort.isBlank()) {
            throw new IllegalArgumentException("no port given" + hint);
        }
        String s = hostPort.trim();
        if (s.startsWith("[")) {
            int close = s.indexOf("]:");
            if (close < 0) {
                throw new IllegalArgumentException("bad address '" + s + "'" + hint);
            }
            return new String[] {s.substring(1, close), s.substring(close + 2)};
        }
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            return new String[] {null, s};
        }
        String host = s.substring(0, colon);
        if (host.contains(":")) {
            throw new IllegalArgumentException("bad address '" + s + "': put an IPv6 host in brackets" + hint);
        }
        return new String[] {host.isEmpty() || host.equals("*") ? null : host, s.substring(colon + 1)};
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "bad port '" + text + "': give a number from 0 to 65535 (0 picks a free port)");
    }

    private static int intOption(Map<String, String> opts, String key, int dflt, int min, int max) {
        String value = opts.get(key);
        if (value == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("bad " + key + "='" + value + "': give a number from " + min + " to " + max
                + " (default " + dflt + ")");
    }

    private static boolean onOff(Map<String, String> opts, String key, boolean dflt) {
        String value = opts.get(key);
        if (value == null) {
            return dflt;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on":
            case "true":
                return true;
            case "off":
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(
                        "bad " + key + "='" + value + "': give on or off (default " + (dflt ? "on" : "off") + ")");
        }
    }

    /**
     * Reads what an option names (a key, a certificate, a password file or variable): its failure is
     * the file's fault, not the options', and says so by its type ({@link UnusableFileException}).
     */
    private static <T> T fromFiles(java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (UnusableFileException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UnusableFileException(e.getMessage());
        }
    }

    private static TlsMaterial tls(Map<String, String> opts) {
        String keystore = nonEmpty(opts, TLS_KEYSTORE);
        String cert = nonEmpty(opts, TLS_CERT);
        String key = nonEmpty(opts, TLS_KEY);
        String clientCa = nonEmpty(opts, TLS_CLIENT_CA);
        String referenced = fromFiles(
                () -> Secrets.read(opts, TLS_KEYSTORE_PASSWORD_FILE, TLS_KEYSTORE_PASSWORD_ENV, System.getenv()));
        if (referenced != null && opts.containsKey(TLS_KEYSTORE_PASSWORD)) {
            throw new IllegalArgumentException("give the keystore password one way, not several");
        }
        boolean hasPassword = referenced != null || opts.containsKey(TLS_KEYSTORE_PASSWORD);
        TlsMaterial tls;
        if (keystore != null) {
            if (cert != null || key != null) {
                throw new IllegalArgumentException("give either " + TLS_KEYSTORE + " (PKCS12) or " + TLS_CERT + " + "
                        + TLS_KEY + " (PEM), not both");
            }
            tls = fromFiles(() -> TlsMaterial.pkcs12(
                    Path.of(keystore), referenced != null ? referenced : opts.get(TLS_KEYSTORE_PASSWORD)));
        } else if (cert != null || key != null) {
            if (cert == null || key == null) {
                throw new IllegalArgumentException(TLS_CERT + " and " + TLS_KEY
                        + " go together: give the PEM certificate chain and its private key");
            }
            if (hasPassword) {
                throw new IllegalArgumentException(
                        TLS_KEYSTORE_PASSWORD + " applies only to " + TLS_KEYSTORE + "; PEM keys must be unencrypted");
            }
            tls = fromFiles(() -> TlsMaterial.pem(Path.of(cert), Path.of(key)));
        } else {
            if (hasPassword) {
                throw new IllegalArgumentException(TLS_KEYSTORE_PASSWORD + " is set but " + TLS_KEYSTORE + " is not");
            }
            if (clientCa != null) {
                throw new IllegalArgumentException(
                        TLS_CLIENT_CA + " needs TLS: give " + TLS_KEYSTORE + " or " + TLS_CERT + " + " + TLS_KEY);
            }
            return null;
        }
        TlsMaterial server = tls;
        return clientCa == null ? server : fromFiles(() -> server.requireClientCertificates(Path.of(clientCa)));
    }

    private static Credentials credentials(Map<String, String> opts) {
        String user = nonEmpty(opts, AUTH_USER);
        String hash = nonEmpty(opts, AUTH_PASSWORD_HASH);
        String password = opts.get(AUTH_PASSWORD);
        boolean plaintextAllowed = onOff(opts, AUTH_PLAINTEXT, false);
        String referenced = fromFiles(() -> Secrets.read(opts, AUTH_PASSWORD_FILE, AUTH_PASSWORD_ENV, System.getenv()));
        if (user == null) {
            if (hash != null || password != null || referenced != null) {
                throw new IllegalArgumentException("a password is set but " + AUTH_USER + " is not: give both");
            }
            if (opts.containsKey(AUTH_PLAINTEXT)) {
                throw new IllegalArgumentException(
                        AUTH_PLAINTEXT + " applies only with " + AUTH_USER + " and " + AUTH_PASSWORD);
            }
            return null;
        }
        if (user.contains(":")) {
            throw new IllegalArgumentException(
                    AUTH_USER + " must not contain ':' (basic auth separates user and password with it)");
        }
        if (referenced != null && (hash != null || password != null)) {
            throw new IllegalArgumentException("give the password one way: " + AUTH_PASSWORD_HASH + ", "
                    + AUTH_PASSWORD_FILE + ", " + AUTH_PASSWORD_ENV + " or " + AUTH_PASSWORD);
        }
        if (referenced != null) {
            String from = opts.containsKey(AUTH_PASSWORD_FILE) ? AUTH_PASSWORD_FILE : AUTH_PASSWORD_ENV;
            return fromFiles(() -> PasswordSource.credentials(user, referenced, from, plaintextAllowed));
        }
        if (hash != null && password != null) {
            throw new IllegalArgumentException(
                    "give either " + AUTH_PASSWORD_HASH + " or " + AUTH_PASSWORD + ", not both");
        }
        if (hash != null) {
            try {
                return Credentials.hashed(user, PasswordHash.parse(hash));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad " + AUTH_PASSWORD_HASH + ": " + e.getMessage());
            }
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException(
                    AUTH_USER + " needs " + AUTH_PASSWORD_HASH + " (make one with: " + HASH_COMMAND + "), or "
                            + AUTH_PASSWORD_FILE + "=PATH / " + AUTH_PASSWORD_ENV + "=VARIABLE holding that hash");
        }
        if (!plaintextAllowed) {
            throw new IllegalArgumentException(
                    AUTH_PASSWORD + " keeps the password in plaintext: use " + AUTH_PASSWORD_HASH
                            + " (" + HASH_COMMAND + "), or add "
                            + AUTH_PLAINTEXT + "=true to accept the risk");
        }
        return Credentials.plaintext(user, password);
    }

    private static String nonEmpty(Map<String, String> opts, String key) {
        String value = opts.get(key);
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException("option " + key + " is empty: give a value or leave it out");
        }
        return value.trim();
    }

    private static String namesUnder(String prefix) {
        Set<String> names = new TreeSet<>();
        for (String n : OPTION_NAMES) {
            if (n.startsWith(prefix)) {
                names.add(n);
            }
        }
        return String.join(", ", names);
    }
}
