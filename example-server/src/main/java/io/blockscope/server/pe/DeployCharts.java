package io.blockscope.server.pe;

import io.blockscope.server.pe.DeployRun.DeployResult;
import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The seed's charts of the deploy comparison, drawn from the raw JSON: one PNG per figure, five
 * panels across (one per deploy, one shared y-axis so the panels compare at a glance), each showing
 * the loadings in sequence over time, shaded alternately and named at the top.
 */
final class DeployCharts {

    /** One chart: its file name, title, y-axis label, and the lines it draws from each sample. */
    record Figure(String file, String title, String axis, boolean log, List<Line> lines) {}

    /** One line of a chart; {@code value} returns null where the figure is unknown (no point). */
    record Line(String name, Function<Figures, Double> value) {}

    static final List<Figure> FIGURES = List.of(
            figure("throughput", "Throughput", "randomRead ops/s", line("ops/s", Figures::opsPerSec)),
            new Figure(
                    "latency",
                    "Latency percentiles (HdrHistogram)",
                    "microseconds (log)",
                    true,
                    List.of(
                            line("p50", Figures::p50Micros),
                            line("p95", Figures::p95Micros),
                            line("p99", Figures::p99Micros),
                            line("p99.9", Figures::p999Micros))),
            figure(
                    "gc-pause",
                    "GC pause time (JFR)",
                    "ms of pause per second",
                    line("pause ms/s", f -> f.gcPauseSecondsPerSecond() * 1000)),
            figure(
                    "gc-count",
                    "GC pauses (JFR)",
                    "pauses per second",
                    line("pauses/s", f -> f.seconds() > 0 ? f.gcPauseCount() / f.seconds() : null)),
            figure("alloc", "Heap allocation rate", "MB/s", line("MB/s", f -> scaled(f.allocBytesPerSec(), 1e-6))),
            figure("cpu", "Process CPU", "cores", line("cores", Figures::cpuCores)),
            new Figure(
                    "hit-ratio",
                    "Block cache hit ratio",
                    "hits / lookups",
                    false,
                    List.of(line("data blocks", Figures::dataHitRatio), line("all blocks", Figures::cacheHitRatio))),
            figure(
                    "file-reads",
                    "Data blocks read from the store files",
                    "blocks per second",
                    line("blocks/s", f -> f.fileReadsPerSec())),
            figure(
                    "evictions",
                    "Block cache evictions",
                    "blocks evicted per second",
                    line("blocks/s", f -> f.evictedBlocksPerSec())),
            new Figure(
                    "memory",
                    "Memory",
                    "MB",
                    false,
                    List.of(
                            line("heap after GC", f -> mb(f.heapAfterGcBytes())),
                            line("direct buffers", f -> mb(f.directBytes())),
                            line("RSS", f -> mb(f.rssBytes())),
                            line("heap after full GC", f -> mb(f.liveHeapBytes())),
                            line("direct after full GC", f -> mb(f.liveDirectBytes())))));

    private DeployCharts() {}

    private static Figure figure(String file, String title, String axis, Line line) {
        return new Figure(file, title, axis, false, List.of(line));
    }

    private static Line line(String name, Function<Figures, Double> value) {
        return new Line(name, value);
    }

    private static Double scaled(Double value, double factor) {
        return value == null ? null : value * factor;
    }

    private static Double mb(Long bytes) {
        return bytes == null ? null : bytes / 1048576.0;
    }

    /** Writes {@code <prefix>-<figure>.png} into {@code directory} for every figure; returns the files. */
    static List<Path> write(DeployRun run, Path directory, String prefix) throws IOException {
        Files.createDirectories(directory);
        List<Path> files = new ArrayList<>();
        for (Figure figure : FIGURES) {
            Path file = directory.resolve(prefix + "-" + figure.file() + ".png");
            ThroughputChart.savePng(
                    file, chart(run, figure), 300 * run.deploys().size() + 100, 420);
            files.add(file);
        }
        return files;
    }

    /** The chart of one figure: a panel per deploy sharing the y-axis. */
    static JFreeChart chart(DeployRun run, Figure figure) {
        ValueAxis range = figure.log() ? new LogAxis(figure.axis()) : new NumberAxis(figure.axis());
        if (range instanceof NumberAxis n) {
            n.setAutoRangeIncludesZero(true);
        } else if (range instanceof LogAxis log) {
            log.setNumberFormatOverride(new DecimalFormat("#,##0.#"));
        }
        CombinedRangeXYPlot combined = new CombinedRangeXYPlot(range);
        boolean first = true;
        for (DeployResult deploy : run.deploys()) {
            combined.add(panel(deploy, figure, first));
            first = false;
        }
        String title = figure.title() + " per deploy; loadings left to right: "
                + String.join(
                        ", ",
                        run.deploys().get(0).loadings().stream()
                                .map(LoadingResult::name)
                                .toList());
        JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 14), combined, true);
        return chart;
    }

    private static XYPlot panel(DeployResult deploy, Figure figure, boolean legend) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < figure.lines().size(); i++) {
            Line line = figure.lines().get(i);
            XYSeries series = new XYSeries(line.name(), false, true);
            int samples = 0;
            for (LoadingResult loading : deploy.loadings()) {
                for (Figures f : loading.samples()) {
                    samples++;
                    Double y = line.value().apply(f);
                    if (y != null && Double.isFinite(y) && (!figure.log() || y > 0)) {
                        series.add(f.t(), y);
                    }
                }
            }
            data.addSeries(series);
            // a figure read only at some ticks (--live-every) gets a mark at each reading
            renderer.setSeriesShapesVisible(i, series.getItemCount() < samples);
            renderer.setSeriesPaint(i, ThroughputChart.PALETTE[i % ThroughputChart.PALETTE.length]);
            renderer.setSeriesStroke(i, new BasicStroke(1.5f));
        }
        renderer.setDefaultSeriesVisibleInLegend(legend && figure.lines().size() > 1);
        NumberAxis time = new NumberAxis(deploy.deploy() + " (s)");
        time.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, time, null, renderer);
        double start = 0;
        int n = 0;
        for (LoadingResult loading : deploy.loadings()) {
            double end = loading.samples().get(loading.samples().size() - 1).t();
            IntervalMarker band =
                    new IntervalMarker(start, end, n % 2 == 0 ? new Color(0xF2F2F2) : new Color(0xDDE6F0));
            band.setLabel(shortName(loading));
            band.setLabelFont(new Font("SansSerif", Font.PLAIN, 9));
            band.setLabelAnchor(RectangleAnchor.TOP);
            band.setLabelTextAnchor(TextAnchor.TOP_CENTER);
            plot.addDomainMarker(band, Layer.BACKGROUND);
            start = end;
            n++;
        }
        return plot;
    }

    /** {@code 2x} for a loading reading twice the cache: short enough for a narrow band. */
    private static String shortName(LoadingResult loading) {
        double f = loading.factor();
        return (f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f)) + "x";
    }
}
