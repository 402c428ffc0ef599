package io.blockscope.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a test runs Prometheus: which binary, and either a configuration written here (1 s scrapes and rule
 * evaluations, one job over the targets, the rule files, optionally itself as job {@code prometheus}) or
 * the caller's own file, as an operator runs it. By default the binary is Debian's 2.x on PATH, the job
 * {@value #JOB}, and native histograms are on through the 2.x feature flag.
 */
public final class PrometheusSetup {

    public static final String JOB = "blockscope";

    /** How the release scrapes native histograms, if at all. */
    public enum NativeHistograms {
        /** Classic series only: Prometheus scrapes text. */
        OFF,
        /** 2.x: {@code --enable-feature=native-histograms} (which also makes it negotiate protobuf). */
        FEATURE_FLAG,
        /** 3.9+: {@code scrape_native_histograms: true} in the scrape config (the flag does nothing any more). */
        SCRAPE_CONFIG
    }

    private final Path dir;
    private Path binary;
    private String job = JOB;
    private final List<String> targets = new ArrayList<>();
    private final Map<String, String> targetLabels = new LinkedHashMap<>();
    private final List<Path> ruleFiles = new ArrayList<>();
    private NativeHistograms nativeHistograms = NativeHistograms.FEATURE_FLAG;
    private boolean scrapeItself;
    private Path configFile;
    private final List<String> flags = new ArrayList<>();
    private int expectedMajor;

    private PrometheusSetup(Path dir) {
        this.dir = dir;
    }

    /** A setup keeping its configuration, data and log in {@code dir}. */
    public static PrometheusSetup in(Path dir) {
        return new PrometheusSetup(dir);
    }

    /** The Prometheus binary (default: {@code prometheus} on PATH). */
    public PrometheusSetup binary(Path executable) {
        this.binary = executable;
        return this;
    }

    /** Fails the start when the server reports another major release (a build without version, too). */
    public PrometheusSetup expectMajor(int major) {
        this.expectedMajor = major;
        return this;
    }

    public PrometheusSetup job(String name) {
        this.job = name;
        return this;
    }

    /** Targets ({@code host:port}) of the job. */
    public PrometheusSetup targets(List<String> hostPorts) {
        targets.addAll(hostPorts);
        return this;
    }

    public PrometheusSetup target(String hostPort) {
        targets.add(hostPort);
        return this;
    }

    /** Labels given to every target of the job (a cluster label, say). */
    public PrometheusSetup targetLabels(Map<String, String> labels) {
        targetLabels.putAll(labels);
        return this;
    }

    public PrometheusSetup ruleFiles(List<Path> files) {
        ruleFiles.addAll(files);
        return this;
    }

    public PrometheusSetup nativeHistograms(NativeHistograms how) {
        this.nativeHistograms = how;
        return this;
    }

    /** Makes Prometheus scrape itself as job {@code prometheus}: a target of another job. */
    public PrometheusSetup scrapeItself(boolean scrape) {
        this.scrapeItself = scrape;
        return this;
    }

    /** Runs with the caller's configuration file instead of one written here (no feature flag). */
    public PrometheusSetup configFile(Path file) {
        this.configFile = file;
        this.nativeHistograms = NativeHistograms.OFF;
        return this;
    }

    /** One more command-line flag, e.g. {@code --web.enable-lifecycle}. */
    public PrometheusSetup flag(String flag) {
        flags.add(flag);
        return this;
    }

    /** Starts it; returns once it answers ready. */
    public PrometheusServer start() throws IOException, InterruptedException {
        Files.createDirectories(dir);
        return PrometheusServer.start(this);
    }

    /** {@code name} from the first folder of PATH that has it executable (then /usr/bin). */
    public static Path onPath(String name) {
        for (String folder : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(folder, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Path debian = Path.of("/usr/bin", name);
        if (Files.isExecutable(debian)) {
            return debian;
        }
        throw new IllegalStateException(name + " not found on PATH: install Debian's prometheus package"
                + " (apt-get install -y --no-install-recommends prometheus), as .ci/test does");
    }

    Path dir() {
        return dir;
    }

    /** The command line on {@code port}; writes the configuration file first unless the caller gave one. */
    List<String> command(int port) throws IOException {
        Path config = configFile != null ? configFile : writeConfig(port);
        List<String> command = new ArrayList<>(List.of(
                (binary != null ? binary : onPath("prometheus")).toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + port,
                "--rules.alert.resend-delay=1s",
                "--log.level=warn"));
        if (nativeHistograms == NativeHistograms.FEATURE_FLAG) {
            command.add("--enable-feature=native-histograms");
        }
        command.addAll(flags);
        return command;
    }

    void checkVersion(PrometheusServer server) {
        if (expectedMajor == 0) {
            return;
        }
        String version = server.version();
        if (!version.startsWith(expectedMajor + ".")) {
            server.close();
            throw new IllegalStateException(binary + " reports version '" + version + "', not Prometheus "
                    + expectedMajor
                    + (version.isEmpty() ? " (a go install without -ldflags: build it with .ci/prometheus3.sh)" : ""));
        }
    }

    private Path writeConfig(int port) throws IOException {
        StringBuilder yaml = new StringBuilder()
                .append("global:\n")
                .append("  scrape_interval: 1s\n")
                .append("  scrape_timeout: 1s\n")
                .append("  evaluation_interval: 1s\n")
                .append("rule_files:\n");
        for (Path rules : ruleFiles) {
            yaml.append("  - ")
                    .append(quoted(rules.toAbsolutePath().toString()))
                    .append('\n');
        }
        if (ruleFiles.isEmpty()) {
            yaml.setLength(yaml.length() - "rule_files:\n".length());
        }
        yaml.append("scrape_configs:\n")
                .append("  - job_name: ")
                .append(quoted(job))
                .append('\n');
        if (nativeHistograms == NativeHistograms.SCRAPE_CONFIG) {
            yaml.append("    scrape_native_histograms: true\n");
        }
        yaml.append("    static_configs:\n").append("      - targets: [");
        for (int i = 0; i < targets.size(); i++) {
            yaml.append(i == 0 ? "" : ", ").append(quoted(targets.get(i)));
        }
        yaml.append("]\n");
        if (!targetLabels.isEmpty()) {
            yaml.append("        labels:\n");
            targetLabels.forEach((k, v) -> yaml.append("          ")
                    .append(k)
                    .append(": ")
                    .append(quoted(v))
                    .append('\n'));
        }
        if (scrapeItself) {
            yaml.append("  - job_name: prometheus\n")
                    .append("    static_configs:\n")
                    .append("      - targets: ['127.0.0.1:")
                    .append(port)
                    .append("']\n");
        }
        Path file = dir.resolve("prometheus.yml");
        Files.writeString(file, yaml);
        return file;
    }

    /** A YAML single-quoted scalar. */
    private static String quoted(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
