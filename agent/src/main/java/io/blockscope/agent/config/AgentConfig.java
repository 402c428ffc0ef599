package io.blockscope.agent.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The agent's settings, built with {@link #builder()} (client_java 1.x style): every setting has the
 * default an operator gets without options, and {@link Builder#build()} checks the ranges.
 * {@link AgentOptions} parses the agent argument, config file and environment on top of the
 * builder. Exporter-owned keys pass through untouched to
 * {@code ExporterConfig.parse(hostPort, exporterOptions)}.
 */
public final class AgentConfig {

    public static final int MAX_SITES = 100;
    /** The most table or user label values the {@code tables} and {@code users} options allow. */
    public static final int MAX_CONTEXT = 1000;

    public static final int MAX_TRACKED = 1 << 16;
    public static final int MAX_LEAK_RATE = 1_000_000;
    public static final int MIN_TRACKED = 16;

    private final String hostPort;
    private final String profile;
    private final int leakSample;
    private final int leakRate;
    private final Duration leakAge;
    private final int copySample;
    private final long copySampleBytes;
    private final boolean copyJfr;
    private final int sites;
    private final int tracked;
    private final int tables;
    private final int users;
    private final Map<String, String> exporterOptions;

    private AgentConfig(Builder b) {
        this.hostPort = b.hostPort;
        this.profile = b.profile;
        this.leakSample = b.leakSample;
        this.leakRate = b.leakRate;
        this.leakAge = b.leakAge;
        this.copySample = b.copySample;
        this.copySampleBytes = b.copySampleBytes;
        this.copyJfr = b.copyJfr;
        this.sites = b.sites;
        this.tracked = b.tracked;
        this.tables = b.tables;
        this.users = b.users;
        this.exporterOptions = Map.copyOf(b.exporterOptions);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code [host:]port} of the metrics endpoint, as the exporter takes it. */
    public String hostPort() {
        return hostPort;
    }

    /** {@code auto}, a built-in profile name, or a JSON file path. */
    public String profile() {
        return profile;
    }

    /** 1 in N block checkouts is tracked for hold time and leaks; 0 = none. */
    public int leakSample() {
        return leakSample;
    }

    /** Sampled checkouts tracked a second at most; 0 = no limit. */
    public int leakRate() {
        return leakRate;
    }

    /** A tracked checkout held longer than this is a leak. */
    public Duration leakAge() {
        return leakAge;
    }

    /** 1 in N copies is attributed to a call site (and a JFR event); 0 = by bytes or none. */
    public int copySample() {
        return copySample;
    }

    /**
     * When {@link #copySample()} is 0: one copy per this many bytes copied (on average) is
     * attributed, each standing for that many bytes; 0 = none.
     */
    public long copySampleBytes() {
        return copySampleBytes;
    }

    /** Whether sampled copies commit a {@code blockscope.CopyToHeap} JFR event. */
    public boolean copyJfr() {
        return copyJfr;
    }

    /** Site label values kept per metric before the rest go to {@code other}. */
    public int sites() {
        return sites;
    }

    /** Tracked checkouts held at once (slots of the tracking table). */
    /** Table label values before the rest go to {@code other}. */
    public int tables() {
        return tables;
    }

    /** User label values before the rest go to {@code other}. */
    public int users() {
        return users;
    }

    public int tracked() {
        return tracked;
    }

    /** The options the exporter owns, passed through unparsed. */
    public Map<String, String> exporterOptions() {
        return exporterOptions;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof AgentConfig)) {
            return false;
        }
        AgentConfig that = (AgentConfig) o;
        return hostPort.equals(that.hostPort)
                && profile.equals(that.profile)
                && leakSample == that.leakSample
                && leakRate == that.leakRate
                && leakAge.equals(that.leakAge)
                && copySample == that.copySample
                && copySampleBytes == that.copySampleBytes
                && copyJfr == that.copyJfr
                && sites == that.sites
                && tracked == that.tracked
                && tables == that.tables
                && users == that.users
                && exporterOptions.equals(that.exporterOptions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                hostPort,
                profile,
                leakSample,
                leakRate,
                leakAge,
                copySample,
                copySampleBytes,
                copyJfr,
                sites,
                tracked,
                tables,
                users,
                exporterOptions);
    }

    @Override
    public String toString() {
        return "AgentConfig[hostPort=" + hostPort + ", profile=" + profile + ", leakSample=" + leakSample
                + ", leakRate=" + leakRate + ", leakAge=" + leakAge + ", copySample=" + copySample
                + ", copySampleBytes=" + copySampleBytes + ", copyJfr=" + copyJfr + ", sites=" + sites
                + ", tracked=" + tracked + ", tables=" + tables + ", users=" + users + ", exporterOptions="
                + exporterOptions + "]";
    }

    /** Settings with the defaults of an agent started with a port alone; {@link #hostPort} is required. */
    public static final class Builder {
        private String hostPort;
        private String profile = "auto";
        private int leakSample = 1024;
        // a tracked sample costs a stack capture (65-100 us cold on a RegionServer's deep stacks), a
        // fixed cost a second: 10 keeps it near 0.1% of a core; a leak hunt raises it for a while
        private int leakRate = 10;
        private Duration leakAge = Duration.ofSeconds(60);
        // by bytes: a busy site gets tens of samples a minute, whatever the size of its copies
        private int copySample = 0;
        private long copySampleBytes = 1L << 20;
        private boolean copyJfr = true;
        private int sites = 20;
        private int tables = 50;
        private int users = 50;
        private int tracked = 4096;
        private final Map<String, String> exporterOptions = new LinkedHashMap<>();

        private Builder() {}

        public Builder hostPort(String hostPort) {
            this.hostPort = hostPort;
            return this;
        }

        public Builder profile(String profile) {
            this.profile = profile;
            return this;
        }

        public Builder leakSample(int leakSample) {
            this.leakSample = leakSample;
            return this;
        }

        public Builder leakRate(int leakRate) {
            this.leakRate = leakRate;
            return this;
        }

        public Builder leakAge(Duration leakAge) {
            this.leakAge = leakAge;
            return this;
        }

        /** Attributes 1 in {@code copySample} copies (0: none); replaces sampling by bytes. */
        public Builder copySample(int copySample) {
            this.copySample = copySample;
            this.copySampleBytes = 0;
            return this;
        }

        /** Attributes one copy per {@code bytes} bytes copied, on average; replaces sampling by count. */
        public Builder copySampleBytes(long bytes) {
            this.copySampleBytes = bytes;
            this.copySample = 0;
            return this;
        }

        public Builder copyJfr(boolean copyJfr) {
            this.copyJfr = copyJfr;
            return this;
        }

        public Builder sites(int sites) {
            this.sites = sites;
            return this;
        }

        public Builder tables(int tables) {
            this.tables = tables;
            return this;
        }

        public Builder users(int users) {
            this.users = users;
            return this;
        }

        public Builder tracked(int tracked) {
            this.tracked = tracked;
            return this;
        }

        /** An option the exporter owns, passed through to it unparsed. */
        public Builder exporterOption(String key, String value) {
            exporterOptions.put(key, value);
            return this;
        }

        /** The settings; an {@link IllegalArgumentException} naming the first one out of range. */
        public AgentConfig build() {
            if (hostPort == null || hostPort.isEmpty()) {
                throw new IllegalArgumentException("no hostPort: the metrics endpoint's [host:]port is required");
            }
            Objects.requireNonNull(profile, "profile");
            Objects.requireNonNull(leakAge, "leakAge");
            check("leakSample", leakSample, 0, Integer.MAX_VALUE);
            check("leakRate", leakRate, 0, MAX_LEAK_RATE);
            if (leakAge.isNegative() || leakAge.isZero()) {
                throw new IllegalArgumentException("leakAge " + leakAge + ": expected a positive duration");
            }
            check("copySample", copySample, 0, Integer.MAX_VALUE);
            if (copySampleBytes < 0) {
                throw new IllegalArgumentException("copySampleBytes " + copySampleBytes + ": expected 0 or more");
            }
            check("sites", sites, 1, MAX_SITES);
            check("tracked", tracked, MIN_TRACKED, MAX_TRACKED);
            check("tables", tables, 0, MAX_CONTEXT);
            check("users", users, 0, MAX_CONTEXT);
            return new AgentConfig(this);
        }

        private static void check(String name, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " " + value + ": expected " + min + ".." + max);
            }
        }
    }
}
