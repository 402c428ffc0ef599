package io.blockscope.server.pe;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Throughput against threads, one line per configuration and one panel per workload: the shape of
 * the seed's graphs, where the copying read path flattens and the zero-copy one keeps climbing.
 * Also the palette and PNG writing shared with {@link DeployCharts}.
 */
final class ThroughputChart {

    static final Color[] PALETTE = {
        new Color(0xD62728),
        new Color(0x1F77B4),
        new Color(0x2CA02C),
        new Color(0xFF7F0E),
        new Color(0x9467BD),
        new Color(0x8C564B),
        new Color(0xE377C2),
        new Color(0x7F7F7F)
    };

    private ThroughputChart() {}

    static void write(Path file, List<StepMeasurement> measurements) throws IOException {
        System.setProperty("java.awt.headless", "true");
        NumberAxis threads = new NumberAxis("threads");
        threads.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        threads.setAutoRangeIncludesZero(false);
        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(threads);
        Map<Workload, Map<String, XYSeries>> byWorkload = new LinkedHashMap<>();
        for (StepMeasurement m : measurements) {
            byWorkload
                    .computeIfAbsent(m.workload, w -> new LinkedHashMap<>())
                    .computeIfAbsent(m.target.label(), label -> new XYSeries(label, true, false))
                    .add(m.threads, m.opsPerSec());
        }
        // One colour per configuration in every panel, and one legend entry per configuration.
        List<String> configurations =
                measurements.stream().map(m -> m.target.label()).distinct().toList();
        boolean first = true;
        for (Map.Entry<Workload, Map<String, XYSeries>> e : byWorkload.entrySet()) {
            XYSeriesCollection data = new XYSeriesCollection();
            XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
            int series = 0;
            for (Map.Entry<String, XYSeries> line : e.getValue().entrySet()) {
                data.addSeries(line.getValue());
                renderer.setSeriesPaint(series, PALETTE[configurations.indexOf(line.getKey()) % PALETTE.length]);
                series++;
            }
            renderer.setDefaultSeriesVisibleInLegend(first);
            first = false;
            NumberAxis ops = new NumberAxis(e.getKey().label() + " ops/s");
            ops.setAutoRangeIncludesZero(true);
            combined.add(new XYPlot(data, null, ops, renderer));
        }
        JFreeChart chart =
                new JFreeChart("blockscope PE: throughput vs threads", JFreeChart.DEFAULT_TITLE_FONT, combined, true);
        savePng(file, chart, 900, 200 + 350 * byWorkload.size());
    }

    /** Writes {@code chart} as a PNG; a headless JVM without fonts gets an IOException saying what to install. */
    static void savePng(Path file, JFreeChart chart, int width, int height) throws IOException {
        System.setProperty("java.awt.headless", "true");
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
        } catch (LinkageError | InternalError | java.awt.AWTError e) {
            // Headless AWT without fonts (no fontconfig) fails with one of these deep in the font
            // code; only these are turned into an IOException (drawing a chart from finished
            // results: no block is held here), every other Error propagates.
            throw new IOException(
                    "cannot render the chart (" + e + "); install fontconfig and a font (e.g. fonts-dejavu-core)", e);
        }
    }
}
