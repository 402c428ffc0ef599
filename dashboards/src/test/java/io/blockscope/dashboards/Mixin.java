package io.blockscope.dashboards;

import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Renders the monitoring mixin (dashboards/mixin) through dashboards/render.sh, as an operator would. */
final class Mixin {

    /**
     * The non-default _config the tests render and run end to end: another job name and a cluster label
     * (rules keep it, alerts carry it, dashboards get a $cluster variable), another Grafana and runbook host.
     */
    static final String CUSTOM_FIELDS = "job: 'hbase-regionserver', clusterLabel: 'cluster',"
            + " grafanaURL: 'https://grafana.example.com',"
            + " runbookURLPattern: 'https://wiki.example.com/blockscope/runbooks#%s',"
            + " findingsURL: '" + Mixin.CUSTOM_FINDINGS + "'";

    /** The custom render's agent endpoint for the findings pages (its runbooks are on a wiki). */
    static final String CUSTOM_FINDINGS = "https://rs1.example.com:9404/";
    /** Where the checked-in alerts link the findings: the agent of their runbooks, beside /runbooks. */
    static final String CHECKED_IN_FINDINGS = "http://localhost:9404/";

    static final String CUSTOM_CONFIG = "{" + CUSTOM_FIELDS + "}";

    /** Where the checked-in alerts link their runbooks: the compose example server's agent (render.sh). */
    static final String CHECKED_IN_RUNBOOKS = "http://localhost:9404/runbooks#";
    /** The override render.sh applies for the checked-in files: the render refuses to run without a runbook URL. */
    static final String CHECKED_IN_CONFIG = "{runbookURLPattern: \"" + CHECKED_IN_RUNBOOKS + "%s\"}";

    static final String CUSTOM_JOB = "hbase-regionserver";
    static final String CUSTOM_CLUSTER = "eu1";

    private Mixin() {}

    /**
     * Renders with {@code configOverride} (a jsonnet object, or null for the checked-in files' settings) into
     * {@code out}. An override without runbookURLPattern gets the checked-in files' one, since the render
     * requires it; {@link #run} renders exactly what it is given.
     */
    static Path render(String configOverride, Path out) {
        return render(ModulePaths.dashboards(), configOverride, out);
    }

    /** {@link #render(String, Path)} of the mixin in {@code dashboards} (another module's tests name it). */
    static Path render(Path dashboards, String configOverride, Path out) {
        String override = configOverride == null ? CHECKED_IN_CONFIG : configOverride;
        if (!override.contains("runbookURLPattern")) {
            override = "{runbookURLPattern: \"" + CHECKED_IN_RUNBOOKS + "%s\", "
                    + override.strip().substring(1);
        }
        Command.Result result = run(dashboards, List.of("--config-override", override, "--out", out.toString()));
        if (!result.ok()) {
            throw new IllegalStateException("dashboards/render.sh failed (" + result.exitCode() + "): "
                    + result.output() + "\nInstall jsonnet: apt-get install jsonnet (or pip install jsonnet)");
        }
        return out;
    }

    static Command.Result run(List<String> args) {
        return run(ModulePaths.dashboards(), args);
    }

    private static Command.Result run(Path dashboards, List<String> args) {
        List<String> command =
                new ArrayList<>(List.of("bash", dashboards.resolve("render.sh").toString()));
        command.addAll(args);
        return Command.run(command, null, Duration.ofSeconds(60));
    }

    /** The files a render writes, relative to its output folder, sorted. */
    static List<String> renderedFiles(Path out) {
        try (Stream<Path> files = Files.walk(out)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> out.relativize(f).toString())
                    .filter(f -> f.equals("alerts.yml")
                            || f.equals("recording-rules.yml")
                            || f.startsWith("grafana/")
                            || f.startsWith("k8s/"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + out, e);
        }
    }

    /**
     * The promtool unit tests (written for the default render) relabelled for {@link #CUSTOM_CONFIG}: input
     * and expected series get {@code cluster="eu1"} and job {@code hbase-regionserver}, the expected links the
     * custom Grafana and runbook hosts. Series of other jobs (job="node") stay as they are.
     */
    static String relabelUnitTests(String tests) {
        return customLinks(tests)
                .replace("job=\"blockscope\"", "cluster=\"" + CUSTOM_CLUSTER + "\",job=\"" + CUSTOM_JOB + "\"")
                .replaceAll("(?m)^(\\s+)job: blockscope$", "$1job: " + CUSTOM_JOB + "\n$1cluster: " + CUSTOM_CLUSTER)
                .replace("(job blockscope)", "(job " + CUSTOM_JOB + ")");
    }

    /**
     * The promtool unit tests relabelled for {@link #CUSTOM_CONFIG} as one Prometheus of a pair evaluates
     * them: the series carry no cluster label ({@code cluster="eu1"} is the test groups' external label, which
     * Prometheus adds only to what it sends), so the alerts' labels have none, while their dashboard links
     * still name the cluster.
     */
    static String relabelUnitTestsClusterExternal(String tests) {
        return customLinks(tests)
                .replace("job=\"blockscope\"", "job=\"" + CUSTOM_JOB + "\"")
                .replaceAll("(?m)^(\\s+)job: blockscope$", "$1job: " + CUSTOM_JOB)
                .replaceAll(
                        "(?m)^  - name: (.*)$", "  - name: $1\n    external_labels:\n      cluster: " + CUSTOM_CLUSTER)
                .replace("(job blockscope)", "(job " + CUSTOM_JOB + ")");
    }

    /** The checked-in render's dashboard, runbook and finding links as {@link #CUSTOM_CONFIG} renders them. */
    private static String customLinks(String tests) {
        return tests.replace(
                        "http://localhost:3000/d/blockscope-offheap/offheap-read-path?var-job=blockscope&",
                        "https://grafana.example.com/d/blockscope-offheap/offheap-read-path?var-cluster="
                                + CUSTOM_CLUSTER + "&var-job=" + CUSTOM_JOB + "&")
                .replace(CHECKED_IN_RUNBOOKS, "https://wiki.example.com/blockscope/runbooks#")
                .replace(CHECKED_IN_FINDINGS + "findings", CUSTOM_FINDINGS + "findings");
    }
}
