package io.blockscope.dashboards;

import io.blockscope.testsupport.PrometheusSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.TestAbortedException;

/**
 * The Prometheus releases the tests run the rules and dashboards on, each a {@code prometheus} server and
 * the {@code promtool} of the same release:
 * <ul>
 *   <li>{@link #V2}: Debian's package (2.42), on PATH ({@code .ci/test} and {@code dashboards/setup.sh}
 *       install it);</li>
 *   <li>{@link #V3}: Prometheus 3.16 built from the Go module proxy by {@code .ci/prometheus3.sh} into a
 *       folder that {@value #V3_VARIABLE} names ({@code .ci/test} exports it).</li>
 * </ul>
 * Without {@value #V3_VARIABLE} a Prometheus 3 test is skipped, saying how to get it; but never on CI
 * ({@code CI=true}), where a missing Prometheus 3 fails the test, so a broken install step cannot turn the
 * 3.x checks into silent skips.
 */
enum PrometheusVersion {
    V2(2),
    V3(3);

    static final String V3_VARIABLE = "BLOCKSCOPE_PROMETHEUS3";

    private final int major;

    PrometheusVersion(int major) {
        this.major = major;
    }

    int major() {
        return major;
    }

    /** The server binary; skips (or on CI fails) the calling test when this release is not installed. */
    Path prometheus() {
        return found("prometheus");
    }

    /** The promtool of the same release; skips (or on CI fails) like {@link #prometheus()}. */
    Path promtool() {
        return found("promtool");
    }

    /**
     * How this release scrapes native histograms: 2.x with a feature flag (which also makes it negotiate
     * protobuf), 3.9+ with a field of the scrape config (the flag does nothing any more).
     */
    boolean nativeHistogramsInScrapeConfig() {
        return this == V3;
    }

    /**
     * A Prometheus of this release keeping its files in {@code dir}, scraping native histograms the way
     * this release needs (see {@link #nativeHistogramsInScrapeConfig()}) or, when {@code nativeHistograms}
     * is off, classic series only.
     */
    PrometheusSetup setup(Path dir, boolean nativeHistograms) {
        return PrometheusSetup.in(dir)
                .binary(prometheus())
                .expectMajor(major)
                .nativeHistograms(
                        !nativeHistograms
                                ? PrometheusSetup.NativeHistograms.OFF
                                : nativeHistogramsInScrapeConfig()
                                        ? PrometheusSetup.NativeHistograms.SCRAPE_CONFIG
                                        : PrometheusSetup.NativeHistograms.FEATURE_FLAG);
    }

    @Override
    public String toString() {
        return "Prometheus " + major;
    }

    private Path found(String name) {
        try {
            return binary(name, System.getenv());
        } catch (TestAbortedException skipped) {
            // Surefire's summary counts skips but does not say why: the reason goes to the build log.
            System.out.println("SKIPPED (Prometheus 3): " + skipped.getMessage());
            throw skipped;
        }
    }

    /** {@code name} of this release, as found with the environment {@code env}. */
    Path binary(String name, Map<String, String> env) {
        if (this == V2) {
            return PrometheusSetup.onPath(name);
        }
        String dir = env.get(V3_VARIABLE);
        if (dir == null || dir.isBlank()) {
            String reason = "Prometheus 3 not available: " + V3_VARIABLE + " is not set; run 'export \"$(bash"
                    + " .ci/prometheus3.sh | tail -1)\"' (builds Prometheus 3.16 and its promtool with the Go"
                    + " toolchain, once, into ~/.cache/blockscope) or set " + V3_VARIABLE
                    + "=<folder with prometheus and promtool>";
            if (onCi(env.get("CI"))) {
                throw new IllegalStateException("CI=true but " + reason
                        + ". CI must run the Prometheus 3 tests: .ci/test exports it after .ci/prometheus3.sh.");
            }
            Assumptions.abort(reason);
        }
        Path binary = Path.of(dir, name);
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(V3_VARIABLE + "=" + dir + " has no executable " + name
                    + ": point it at the folder .ci/prometheus3.sh prints, or rerun that script");
        }
        return binary;
    }

    /** CI systems (GitHub Actions, GitLab, this project's .ci/run) set CI=true; any other value is local. */
    static boolean onCi(String ci) {
        return ci != null && (ci.equalsIgnoreCase("true") || ci.equals("1"));
    }
}
