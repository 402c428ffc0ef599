package io.blockscope.agent.config;

import java.time.Duration;
import java.util.Map;

/**
 * The agent's settings after merging defaults, the config file, the agent argument and the
 * environment (later wins). Exporter-owned keys pass through untouched to
 * {@code ExporterConfig.parse(hostPort, exporterOptions)}.
 *
 * @param hostPort        {@code [host:]port} of the metrics endpoint, as the exporter takes it
 * @param profile         {@code auto}, a built-in profile name, or a JSON file path
 * @param leakSample      1 in N block checkouts is tracked for hold time and leaks; 0 = none
 * @param leakRate        sampled checkouts tracked a second at most; 0 = no limit
 * @param leakAge         a tracked checkout held longer than this is a leak
 * @param copySample      1 in N copies is attributed to a call site (and a JFR event); 0 = by bytes or none
 * @param copySampleBytes when copySample is 0: one copy per this many bytes copied (on average) is
 *                        attributed, each standing for that many bytes; 0 = none
 * @param copyJfr         whether sampled copies commit a {@code blockscope.CopyToHeap} JFR event
 * @param sites           site label values kept per metric before the rest go to {@code other}
 * @param tracked         tracked checkouts held at once (slots of the tracking table)
 * @param probeSwitch     whether the {@code io.blockscope:type=ProbeSwitch} MBean is registered, to
 *                        remove and reinstall the probes at run time (overhead measurements only)
 */
public final class AgentConfig {
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
    private final boolean probeSwitch;
    private final Map<String, String> exporterOptions;

    public AgentConfig(
            String hostPort,
            String profile,
            int leakSample,
            int leakRate,
            Duration leakAge,
            int copySample,
            long copySampleBytes,
            boolean copyJfr,
            int sites,
            int tracked,
            boolean probeSwitch,
            Map<String, String> exporterOptions) {

        exporterOptions = Map.copyOf(exporterOptions);
        this.hostPort = hostPort;
        this.profile = profile;
        this.leakSample = leakSample;
        this.leakRate = leakRate;
        this.leakAge = leakAge;
        this.copySample = copySample;
        this.copySampleBytes = copySampleBytes;
        this.copyJfr = copyJfr;
        this.sites = sites;
        this.tracked = tracked;
        this.probeSwitch = probeSwitch;
        this.exporterOptions = exporterOptions;
    }

    public String hostPort() {
        return hostPort;
    }

    public String profile() {
        return profile;
    }

    public int leakSample() {
        return leakSample;
    }

    public int leakRate() {
        return leakRate;
    }

    public Duration leakAge() {
        return leakAge;
    }

    public int copySample() {
        return copySample;
    }

    public long copySampleBytes() {
        return copySampleBytes;
    }

    public boolean copyJfr() {
        return copyJfr;
    }

    public int sites() {
        return sites;
    }

    public int tracked() {
        return tracked;
    }

    public boolean probeSwitch() {
        return probeSwitch;
    }

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
        return java.util.Objects.equals(hostPort, that.hostPort)
                && java.util.Objects.equals(profile, that.profile)
                && leakSample == that.leakSample
                && leakRate == that.leakRate
                && java.util.Objects.equals(leakAge, that.leakAge)
                && copySample == that.copySample
                && copySampleBytes == that.copySampleBytes
                && copyJfr == that.copyJfr
                && sites == that.sites
                && tracked == that.tracked
                && probeSwitch == that.probeSwitch
                && java.util.Objects.equals(exporterOptions, that.exporterOptions);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(
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
                probeSwitch,
                exporterOptions);
    }

    @Override
    public String toString() {
        return "AgentConfig[hostPort=" + hostPort + ", profile=" + profile + ", leakSample=" + leakSample
                + ", leakRate=" + leakRate + ", leakAge="
                + leakAge + ", copySample=" + copySample + ", copySampleBytes=" + copySampleBytes + ", copyJfr="
                + copyJfr + ", sites=" + sites + ", tracked="
                + tracked + ", probeSwitch=" + probeSwitch + ", exporterOptions=" + exporterOptions + "]";
    }
}
