package io.blockscope.server.pe;

import io.blockscope.server.cache.CacheConfig;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code pe} command's engine: builds the configurations to compare, runs them interleaved,
 * prints the table, writes the JSON and the chart, and checks that no block reference was leaked.
 */
public final class PeRunner {

    /** Where results go. {@code json} and {@code chart} may be null. */
    public record Outputs(Path json, Path chart, PrintStream out, PrintStream err) {}

    private PeRunner() {}

    /** Measures regions opened in this JVM over {@code dataDirectory}, one per cache config. */
    public static int inProcess(
            PeSettings settings, Path dataDirectory, String table, List<CacheConfig> configs, Outputs outputs)
            throws Exception {
        List<ReadTarget> targets = new ArrayList<>();
        try {
            for (CacheConfig config : configs) {
                targets.add(new InProcessTarget(dataDirectory, table, config));
            }
            return run(settings, targets, outputs);
        } finally {
            targets.forEach(ReadTarget::close);
        }
    }

    /** Measures running servers over RPC, one configuration per URL. */
    public static int remote(PeSettings settings, List<URI> urls, String table, Duration timeout, Outputs outputs)
            throws Exception {
        List<ReadTarget> targets = new ArrayList<>();
        for (URI url : urls) {
            targets.add(new RpcTarget(url, table, timeout));
        }
        return run(settings, targets, outputs);
    }

    /**
     * The target's outstanding references once they reach zero, or after five seconds: a server
     * gives a response's blocks back only when Jetty reports the write done, a moment after the
     * client has read it.
     */
    private static long awaitNoOutstandingReferences(ReadTarget target) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long outstanding = target.outstandingBlockReferences();
        while (outstanding != 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            outstanding = target.outstandingBlockReferences();
        }
        return outstanding;
    }

    private static int run(PeSettings settings, List<ReadTarget> targets, Outputs outputs) throws Exception {
        PrintStream out = outputs.out();
        List<List<StepMeasurement>> steps = new ArrayList<>();
        List<StepMeasurement> all = new ArrayList<>();
        try (ProgressLine progress = new ProgressLine(outputs.err(), settings.progress())) {
            progress.println("[pe] comparing "
                    + targets.stream().map(ReadTarget::label).toList() + " ("
                    + (targets.get(0).url() == null ? "in-process: server-side cost only" : "over RPC") + "), baseline "
                    + targets.get(0).label());
            PerformanceEvaluation pe = new PerformanceEvaluation(settings, targets, progress);
            boolean[] headerPrinted = {false};
            pe.run(step -> {
                steps.add(step);
                all.addAll(step);
                if (!headerPrinted[0]) {
                    progress.emit(out, PeReport.header());
                    headerPrinted[0] = true;
                }
                for (String line : PeReport.lines(step)) {
                    progress.emit(out, line);
                }
            });
        }
        out.flush();
        int status = 0;
        for (ReadTarget target : targets) {
            long outstanding = awaitNoOutstandingReferences(target);
            if (outstanding != 0) {
                outputs.err()
                        .println("[pe] ERROR: " + target.label() + " still has " + outstanding
                                + " block references outstanding after the run: a leak");
                status = 1;
            }
        }
        if (all.stream().anyMatch(m -> m.errors > 0)) {
            outputs.err().println("[pe] ERROR: some operations failed; see the '!' lines above");
            status = 1;
        }
        if (outputs.json() != null) {
            PeReport.writeJson(outputs.json(), settings, steps);
            outputs.err().println("[pe] wrote " + outputs.json());
        }
        if (outputs.chart() != null) {
            ThroughputChart.write(outputs.chart(), all);
            outputs.err().println("[pe] wrote " + outputs.chart());
        }
        return status;
    }
}
