package io.blockscope.exporter;

import static io.blockscope.exporter.ExporterConfig.AUTH_PASSWORD;
import static io.blockscope.exporter.ExporterConfig.AUTH_PASSWORD_ENV;
import static io.blockscope.exporter.ExporterConfig.AUTH_PASSWORD_FILE;
import static io.blockscope.exporter.ExporterConfig.AUTH_PASSWORD_HASH;
import static io.blockscope.exporter.ExporterConfig.AUTH_PLAINTEXT;
import static io.blockscope.exporter.ExporterConfig.AUTH_USER;
import static io.blockscope.exporter.ExporterConfig.DEFAULT_THREADS;
import static io.blockscope.exporter.ExporterConfig.GC_SOURCE;
import static io.blockscope.exporter.ExporterConfig.JFR;
import static io.blockscope.exporter.ExporterConfig.JVM_METRICS;
import static io.blockscope.exporter.ExporterConfig.THREADS;
import static io.blockscope.exporter.ExporterConfig.TLS_CERT;
import static io.blockscope.exporter.ExporterConfig.TLS_CLIENT_CA;
import static io.blockscope.exporter.ExporterConfig.TLS_KEY;
import static io.blockscope.exporter.ExporterConfig.TLS_KEYSTORE;
import static io.blockscope.exporter.ExporterConfig.TLS_KEYSTORE_PASSWORD;
import static io.blockscope.exporter.ExporterConfig.TLS_KEYSTORE_PASSWORD_ENV;
import static io.blockscope.exporter.ExporterConfig.TLS_KEYSTORE_PASSWORD_FILE;

import io.blockscope.exporter.auth.Credentials;
import io.blockscope.exporter.auth.HashPassword;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.auth.PasswordSource;
import io.blockscope.exporter.auth.Secrets;
import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.tls.TlsMaterial;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link ExporterConfig#parse}: turns {@code [host:]port} and the option strings into the
 * builder's typed values (loading the TLS files and reading the secrets they name), checking each
 * as it goes so that the first bad option is the one named, then builds.
 */
final class ExporterOptions {

    /** Computed, so it names the class as it is called in whatever jar (relocated or not) we run from. */
    private static final String HASH_COMMAND = "java -cp JAR " + HashPassword.class.getName();

    /** Prefixes the exporter owns: an unknown key under them is a typo, not someone else's option. */
    private static final String[] OWNED_PREFIXES = {"tls.", "auth.", "gc.", "jvm."};

    private ExporterOptions() {}

    static ExporterConfig parse(String hostPort, Map<String, String> options) {
        Map<String, String> opts = options == null ? Map.of() : options;
        for (String key : opts.keySet()) {
            for (String prefix : OWNED_PREFIXES) {
                if (key.startsWith(prefix) && !ExporterConfig.optionNames().contains(key)) {
                    throw new IllegalArgumentException(
                            "unknown option '" + key + "'; the " + prefix + "* options are " + namesUnder(prefix));
                }
            }
        }
        String[] hp = splitHostPort(hostPort);
        // each option is checked as it is read, in this order, so that the first bad one is named
        return ExporterConfig.builder()
                .host(hp[0])
                .port(port(hp[1]))
                .threads(threads(opts))
                .gcSource(gcSource(opts))
                .jvmMetrics(onOff(opts, JVM_METRICS, true))
                .tls(tls(opts))
                .credentials(credentials(opts))
                .build();
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

    /** Checked here as well as in build(), so that the message shows the port as written. */
    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (ExporterConfig.validPort(port)) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ExporterConfig.badPort(text);
    }

    /** Checked here as well as in build(), so that the message shows the value as written. */
    private static int threads(Map<String, String> opts) {
        String value = opts.get(THREADS);
        if (value == null) {
            return DEFAULT_THREADS;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (ExporterConfig.validThreads(n)) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ExporterConfig.badThreads(value);
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

    /**
     * {@code gc.source}, or its older spelling {@code jfr=on|off}; not both, so that no combination
     * needs a precedence rule to be understood.
     */
    private static GcMonitoring.Source gcSource(Map<String, String> opts) {
        String value = opts.get(GC_SOURCE);
        if (value == null) {
            return onOff(opts, JFR, true) ? GcMonitoring.Source.JFR : GcMonitoring.Source.MXBEAN;
        }
        if (opts.containsKey(JFR)) {
            throw new IllegalArgumentException("both " + GC_SOURCE + " and " + JFR + " are set: give " + GC_SOURCE
                    + " only (" + JFR + "=off is the older spelling of " + GC_SOURCE + "=mxbean)");
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "jfr":
                return GcMonitoring.Source.JFR;
            case "mxbean":
                return GcMonitoring.Source.MXBEAN;
            case "off":
                return GcMonitoring.Source.OFF;
            default:
                throw new IllegalArgumentException(
                        "bad " + GC_SOURCE + "='" + value + "': give jfr (JFR events, falling"
                                + " back to the GC MXBeans), mxbean (GC MXBean notifications) or off (no blockscope_gc_*"
                                + " series, when another agent already exports GC metrics); default jfr");
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
        for (String n : ExporterConfig.optionNames()) {
            if (n.startsWith(prefix)) {
                names.add(n);
            }
        }
        return String.join(", ", names);
    }
}
