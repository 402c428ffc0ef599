package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.pe.DeployRun.DeployResult;
import io.blockscope.server.pe.DeployRun.Figures;
import io.blockscope.server.pe.DeployRun.LoadingResult;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deploy comparison's JSON round trip, and its charts drawn from that JSON. */
class DeployChartsTest {

    @TempDir
    Path dir;

    private static Figures sample(double t, double opsPerSec, Double dataHit) {
        return new Figures(
                t,
                2,
                (long) (opsPerSec * 2),
                opsPerSec,
                12,
                10,
                20,
                30,
                40,
                50,
                3,
                0.006,
                0.003,
                1e8,
                1.5,
                0.9,
                dataHit,
                12.5,
                4,
                2,
                100L << 20,
                300L << 20,
                null,
                64L << 20,
                null);
    }

    /** Two deploys; each loading has two ticks of 2 s; throughput is 1000 x the deploy's number + t. */
    static DeployRun run() {
        List<DeployResult> deploys = new ArrayList<>();
        String[] names = {"lru", "cbc-offheap"};
        for (int d = 0; d < names.length; d++) {
            List<LoadingResult> loadings = new ArrayList<>();
            double t = 0;
            for (double factor : new double[] {0.5, 16}) {
                List<Figures> samples = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    t += 2;
                    samples.add(sample(t, 1000 * (d + 1) + t, d == 0 ? 1.0 : null));
                }
                loadings.add(new LoadingResult(
                        factor < 1 ? "all-in-cache" : "mostly-misses",
                        factor,
                        100,
                        Math.min(1, 1 / factor),
                        1.5,
                        0,
                        null,
                        sample(t, 1000, 0.5),
                        samples));
            }
            deploys.add(new DeployResult(names[d], "cache of " + names[d], loadings));
        }
        return new DeployRun(
                "blockscope pe deploys",
                "2026-11-25T15:00:00Z",
                Map.of("javaVersion", "17"),
                Map.of("threads", 4),
                deploys);
    }

    @Test
    void theJsonReadsBackAsWritten() throws Exception {
        Path json = dir.resolve("run.json");
        run().write(json);
        DeployRun back = DeployRun.read(json);
        assertEquals(run().deploys(), back.deploys());
        assertNull(back.deploys().get(1).loadings().get(0).samples().get(0).dataHitRatio(), "unknown stays null");
        String text = Files.readString(json);
        for (String field : List.of(
                "\"opsPerSec\"",
                "\"p95Micros\"",
                "\"meanMicros\"",
                "\"p999Micros\"",
                "\"gcPauseSecondsPerSecond\"",
                "\"gcPauseCount\"",
                "\"allocBytesPerSec\"",
                "\"cpuCores\"",
                "\"dataHitRatio\"",
                "\"evictedBlocksPerSec\"",
                "\"fileReadsPerSec\"",
                "\"heapAfterGcBytes\"",
                "\"loadAverageAtEnd\"")) {
            assertTrue(text.contains(field), "the JSON lacks " + field);
        }
    }

    @Test
    void aGzipCompressedJsonReadsBackAndNamesItsCharts() throws Exception {
        Path json = dir.resolve("deploys-2026-11-26.json");
        run().write(json);
        Path gz = dir.resolve("deploys-2026-11-26.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(json, out);
        }
        Files.delete(json);
        assertEquals(run().deploys(), DeployRun.read(gz).deploys());
        assertEquals("deploys-2026-11-26", DeployComparison.chartPrefix(gz));
        assertEquals("deploys-2026-11-26", DeployComparison.chartPrefix(json));
    }

    @Test
    void aFileThatIsNotADeployComparisonIsRefusedByName() throws Exception {
        Path other = dir.resolve("pe.json");
        Files.writeString(other, "{\"tool\": \"blockscope pe\", \"records\": []}");
        IOException e = assertThrows(IOException.class, () -> DeployRun.read(other));
        assertTrue(e.getMessage().contains(other.toString()), e.getMessage());
    }

    @Test
    void eachChartHasAPanelPerDeployWithTheLoadingsInSequence() {
        DeployRun run = run();
        DeployCharts.Figure throughput = DeployCharts.FIGURES.get(0);
        JFreeChart chart = DeployCharts.chart(run, throughput);
        CombinedRangeXYPlot plot = (CombinedRangeXYPlot) chart.getPlot();
        @SuppressWarnings("unchecked")
        List<XYPlot> panels = plot.getSubplots();
        assertEquals(2, panels.size());
        for (int d = 0; d < 2; d++) {
            XYDataset data = panels.get(d).getDataset();
            assertEquals(4, data.getItemCount(0), "two loadings of two ticks each");
            for (int i = 0; i < 4; i++) {
                double t = 2 * (i + 1);
                assertEquals(t, data.getXValue(0, i), "time runs on across the loadings");
                assertEquals(1000 * (d + 1) + t, data.getYValue(0, i));
            }
            assertEquals(
                    2,
                    panels.get(d)
                            .getDomainMarkers(org.jfree.chart.ui.Layer.BACKGROUND)
                            .size());
            assertTrue(panels.get(d)
                    .getDomainAxis()
                    .getLabel()
                    .startsWith(run.deploys().get(d).deploy()));
        }
    }

    @Test
    void unknownFiguresLeaveNoPoint() {
        DeployCharts.Figure hits = DeployCharts.FIGURES.stream()
                .filter(f -> f.file().equals("hit-ratio"))
                .findFirst()
                .orElseThrow();
        CombinedRangeXYPlot plot =
                (CombinedRangeXYPlot) DeployCharts.chart(run(), hits).getPlot();
        @SuppressWarnings("unchecked")
        List<XYPlot> panels = plot.getSubplots();
        assertEquals(4, panels.get(0).getDataset().getItemCount(0));
        assertEquals(0, panels.get(1).getDataset().getItemCount(0), "cbc-offheap's data hit ratio is unknown");
    }

    @Test
    void everyFigureIsWrittenAsAPngFromTheJson() throws Exception {
        Path json = dir.resolve("deploys-test.json");
        run().write(json);
        List<Path> files = DeployComparison.charts(json, dir.resolve("charts"));
        assertEquals(DeployCharts.FIGURES.size(), files.size());
        for (Path file : files) {
            assertTrue(file.getFileName().toString().startsWith("deploys-test-"), file.toString());
            byte[] png = Files.readAllBytes(file);
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
            BufferedImage image = ImageIO.read(file.toFile());
            assertEquals(2 * 300 + 100, image.getWidth(), "300 px per deploy panel");
        }
    }
}
