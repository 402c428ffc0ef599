package io.blockscope.server.pe;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Throughput against threads, one line per configuration and one panel per workload: the shape of
 * the seed's graphs, where the copying read path flattens and the zero-copy one keeps climbing.
 */
final class ThroughputChart {

    private ThroughputChart() {
    }

    static void write(Path file, List<StepMeasurement> measurements) throws IOException {
        System.setProperty("java.awt.headless", "true");
        NumberAxis threads = new NumberAxis("threads");
        threads.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(threads);
        Map<Workload, Map<String, XYSeries>> byWorkload = new LinkedHashMap<>();
        for (StepMeasurement m : measurements) {
            byWorkload.computeIfAbsent(m.workload, w -> new LinkedHashMap<>())
                    .computeIfAbsent(m.target.label(), label -> new XYSeries(label, true, false))
                    .add(m.threads, m.opsPerSec());
        }
        for (Map.Entry<Workload, Map<String, XYSeries>> e : byWorkload.entrySet()) {
            XYSeriesCollection data = new XYSeriesCollection();
            e.getValue().values().forEach(data::addSeries);
            NumberAxis ops = new NumberAxis(e.getKey().label() + " ops/s");
            ops.setAutoRangeIncludesZero(true);
            combined.add(new XYPlot(data, null, ops, new XYLineAndShapeRenderer(true, true)));
        }
        JFreeChart chart = new JFreeChart("blockscope PE: throughput vs threads", JFreeChart.DEFAULT_TITLE_FONT, combined, true);
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 200 + 350 * byWorkload.size());
        } catch (Error e) {
            if (e instanceof OutOfMemoryError || e instanceof StackOverflowError) {
                throw e;
            }
            // Headless AWT without fonts (no fontconfig) fails with an Error deep in the font code.
            throw new IOException("cannot render the chart (" + e + "); install fontconfig and a font (e.g. fonts-dejavu-core)", e);
        }
    }
}
