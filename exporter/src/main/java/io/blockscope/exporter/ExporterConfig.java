package io.blockscope.exporter;

import io.blockscope.exporter.auth.Credentials;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.tls.TlsMaterial;
import java.util.Map;
import java.util.Set;

/**
 * Where and how the exporter serves. Built in code with {@link #builder()}:
 *
 * <pre>{@code
 * ExporterConfig config = ExporterConfig.builder().host("127.0.0.1").port(9404).threads(8).build();
 * }</pre>
 *
 * or parsed by {@link #parse} from {@code [host:]port} plus the options named by {@link
 * #optionNames()}, which checks the options (and loads the TLS files) and then builds. Either way
 * a bad value is one clear {@link IllegalArgumentException} at startup rather than a failure later.
 *
 * <p>Options (see docs/exporter.md):
 *
 * <ul>
 *   <li>{@code threads}: HTTP threads, {@value #MIN_THREADS}..{@value #MAX_THREADS}, default
 *       {@value #DEFAULT_THREADS};
 *   <li>{@code gc.source}: {@code jfr} (default, falling back to the GC MXBeans), {@code mxbean}, or
 *       {@code off} (no GC collection: another agent exports GC metrics); {@code jfr=off} is the
 *       older spelling of {@code gc.source=mxbean};
 *   <li>{@code jvm.metrics}: {@code on} (default) or {@code off}, which leaves out the standard
 *       {@code jvm_*} and {@code process_*} series (another agent exports them);
 *   <li>{@code tls.keystore} + {@code tls.keystore.password} (PKCS12), or {@code tls.cert} + {@code
 *       tls.key} (PEM); {@code tls.client.ca} (PEM CAs) additionally requires client certificates;
 *   <li>{@code auth.user} with {@code auth.password.hash} (see {@link PasswordHash}), or with
 *       {@code auth.password} in plaintext, accepted only together with {@code auth.plaintext=true}.
 * </ul>
 */
public final class ExporterConfig {

    public static final String THREADS = "threads";
    public static final String JFR = "jfr";
    public static final String GC_SOURCE = "gc.source";
    public static final String JVM_METRICS = "jvm.metrics";
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

    static final int MIN_THREADS = 2;
    static final int MAX_THREADS = 32;
    static final int DEFAULT_THREADS = 4;
    static final int MAX_PORT = 65535;

    private static final Set<String> OPTION_NAMES = Set.of(
            THREADS,
            JFR,
            GC_SOURCE,
            JVM_METRICS,
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

    private final String host;
    private final int port;
    private final int threads;
    private final GcMonitoring.Source gcSource;
    private final boolean jvmMetrics;
    private final TlsMaterial tls;
    private final Credentials credentials;

    private ExporterConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.threads = b.threads;
        this.gcSource = b.gcSource;
        this.jvmMetrics = b.jvmMetrics;
        this.tls = b.tls;
        this.credentials = b.credentials;
    }

    /**
     * A builder with the defaults: all interfaces, {@value #DEFAULT_THREADS} threads, GC metrics from
     * JFR, JVM metrics on, plain HTTP, no authentication. The port has no default: give it.
     */
    public static Builder builder() {
        return new Builder();
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
        return ExporterOptions.parse(hostPort, options);
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

    /** Whether GC metrics are to come from JFR (falling back to the MXBeans when JFR cannot start). */
    public boolean jfrEnabled() {
        return gcSource == GcMonitoring.Source.JFR;
    }

    /** The GC metrics' source asked for: JFR, the MXBeans, or {@link GcMonitoring.Source#OFF}. */
    public GcMonitoring.Source gcSource() {
        return gcSource;
    }

    /** Whether the standard {@code jvm_*} and {@code process_*} series are registered. */
    public boolean jvmMetrics() {
        return jvmMetrics;
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
                + " threads=" + threads + " gc.source=" + gcSource.label()
                + (jvmMetrics ? "" : " jvm.metrics=off")
                + (tls != null && tls.clientTrustStore() != null ? " client-certificates=required" : "")
                + (credentials == null ? "" : " auth=" + credentials);
    }

    /** Whether {@code port} can be bound: 0 (a free port) to {@value #MAX_PORT}. */
    static boolean validPort(int port) {
        return port >= 0 && port <= MAX_PORT;
    }

    /** The error for a port outside {@link #validPort}, showing it as it was given. */
    static IllegalArgumentException badPort(String given) {
        return new IllegalArgumentException(
                "bad port '" + given + "': give a number from 0 to " + MAX_PORT + " (0 picks a free port)");
    }

    static boolean validThreads(int threads) {
        return threads >= MIN_THREADS && threads <= MAX_THREADS;
    }

    /** The error for a thread count outside {@link #validThreads}, showing it as it was given. */
    static IllegalArgumentException badThreads(String given) {
        return new IllegalArgumentException("bad " + THREADS + "='" + given + "': give a number from " + MIN_THREADS
                + " to " + MAX_THREADS + " (default " + DEFAULT_THREADS + ")");
    }

    /**
     * Builds an {@link ExporterConfig}; every value is checked in {@link #build()}, so a setter
     * never throws and the first bad value is named there.
     */
    public static final class Builder {

        private String host;
        private Integer port;
        private int threads = DEFAULT_THREADS;
        private GcMonitoring.Source gcSource = GcMonitoring.Source.JFR;
        private boolean jvmMetrics = true;
        private TlsMaterial tls;
        private Credentials credentials;

        private Builder() {}

        /**
         * The address to bind: a name, or an IPv4 or IPv6 address (without brackets); null, the
         * default, binds all interfaces.
         */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** The port to serve on, 0 to {@value ExporterConfig#MAX_PORT}; 0 picks a free one. Required. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * HTTP threads, {@value ExporterConfig#MIN_THREADS} to {@value ExporterConfig#MAX_THREADS};
         * default {@value ExporterConfig#DEFAULT_THREADS}.
         */
        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        /**
         * Where GC metrics come from; default {@link GcMonitoring.Source#JFR}, falling back to the
         * MXBeans when JFR cannot start.
         */
        public Builder gcSource(GcMonitoring.Source gcSource) {
            this.gcSource = gcSource;
            return this;
        }

        /** Whether the standard {@code jvm_*} and {@code process_*} series are registered; default true. */
        public Builder jvmMetrics(boolean jvmMetrics) {
            this.jvmMetrics = jvmMetrics;
            return this;
        }

        /**
         * TLS material (see {@link TlsMaterial#pkcs12} and {@link TlsMaterial#pem}); null, the
         * default, serves plain HTTP.
         */
        public Builder tls(TlsMaterial tls) {
            this.tls = tls;
            return this;
        }

        /** Who may scrape (see {@link Credentials#hashed}); null, the default, requires no authentication. */
        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first bad value and what it accepts
         */
        public ExporterConfig build() {
            if (port == null) {
                throw new IllegalArgumentException(
                        "no port given: call port(int) with 0 to " + MAX_PORT + " (0 picks a free port)");
            }
            if (host != null && host.startsWith("[")) {
                throw new IllegalArgumentException(
                        "bad host '" + host + "': give an IPv6 address without brackets, e.g. host(\"::1\")");
            }
            if (!validPort(port)) {
                throw badPort(Integer.toString(port));
            }
            if (!validThreads(threads)) {
                throw badThreads(Integer.toString(threads));
            }
            if (gcSource == null) {
                throw new IllegalArgumentException(
                        "no " + GC_SOURCE + " given: give JFR, MXBEAN or OFF (GcMonitoring.Source)");
            }
            return new ExporterConfig(this);
        }
    }
}
