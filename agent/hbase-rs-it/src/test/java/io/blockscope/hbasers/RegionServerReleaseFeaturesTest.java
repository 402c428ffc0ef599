package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blockscope.exporter.testing.TestJdks;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stock features of {@link RegionServerFeaturesTest} on the other release lines the suite
 * starts, one RegionServer each with the agent at {@code copy.sample=1}, each feature asserted
 * against what that release's source copies ({@link HBaseFeature#on}); and HBase's {@code
 * AggregateImplementation} with each stock column interpreter ({@link AggregateFeatures}) wherever
 * the build resolved hbase-endpoint onto the release's class path. A release of the line {@link
 * RegionServerFeaturesTest} runs (2.6) runs only the aggregates: it stands in for that line because
 * its hbase-endpoint is served and 2.6.4's is not. 2.4 and 2.5 run on JDK 11 (skipped, saying how
 * to enable them, when {@code BLOCKSCOPE_TEST_JDKS} has no {@code 11=} entry). The run writes its
 * own table in docs/hbase.md: per release, the features whose copies differ from 2.6.4's and the
 * aggregates; it is checked only once every release has run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerReleaseFeaturesTest {

    private final String base = System.getProperty("blockscope.hbase.version");
    private final Map<String, List<FeatureReport.Row>> measured = new LinkedHashMap<>();
    /** Per release that ran the stock features: the line saying the others copy as on 2.6.4. */
    private final Map<String, String> notes = new LinkedHashMap<>();

    static Stream<String> releases() {
        return Stream.of(RegionServerProcess.required("blockscope.hbase.features.releases")
                .split(","));
    }

    @ParameterizedTest(name = "HBase {0}")
    @MethodSource("releases")
    @Order(1)
    void eachFeatureCopiesWhatThisReleasesCodeCopies(String release) throws Exception {
        Instant started = Instant.now();
        String classPath = ReleaseClassPath.of(release);
        boolean stockFeatures = !sameLine(release, base);
        boolean aggregates = AggregateFeatures.servedBy(classPath);
        assumeTrue(stockFeatures || aggregates, release + ": no hbase-endpoint on its class path, nothing to run");
        RegionServerProcess.Builder builder =
                RegionServerProcess.builder().hbaseClassPath(classPath).agent("copy.sample=1,copy.jfr=false,sites=100");
        if (release.startsWith("2.4") || release.startsWith("2.5")) {
            // 2.4 does not support JDK 17; 2.5 runs on 11 as RegionServerReleasesTest runs it
            builder.java(TestJdks.require(11));
        }
        List<FeatureReport.Row> rows = new ArrayList<>();
        List<Executable> checks = new ArrayList<>();
        try (RegionServerProcess server = builder.start();
                Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                StockFeatures stock = stockFeatures ? StockFeatures.create(connection) : null;
                AggregateFeatures aggregate = aggregates ? AggregateFeatures.create(connection) : null) {
            FeatureCheck check = new FeatureCheck(server.metricsUri());
            List<HBaseFeature> features = new ArrayList<>();
            if (stock != null) {
                features.addAll(stock.all());
            }
            if (aggregate != null) {
                features.addAll(aggregate.all());
            }
            for (HBaseFeature f : features) {
                HBaseFeature here = f.at(release);
                checks.add(() -> rows.add(check.measure(here, release)));
            }
            assertAll("HBase " + release, checks.stream());
            List<HBaseFeature> stockList = stock == null ? List.of() : stock.all();
            List<FeatureReport.Row> listed = differences(rows, stockList);
            measured.put(release, listed);
            if (stock != null) {
                long differing = listed.stream()
                        .filter(r -> stockList.stream().anyMatch(f -> f.name.equals(r.feature.name)))
                        .count();
                notes.put(
                        release,
                        String.format(
                                "On %s the other %d of the %d stock features copy what they copy on %s.",
                                release, stockList.size() - differing, stockList.size(), base));
            }
        }
        System.out.printf(
                "HBase %s: %d features (stock: %s, aggregates: %s) in %d s with the server's start%n",
                release,
                rows.size(),
                stockFeatures,
                aggregates,
                Duration.between(started, Instant.now()).toSeconds());
    }

    /** The rows an operator needs beside 2.6.4's table: stock features that copy otherwise, and the aggregates. */
    private List<FeatureReport.Row> differences(List<FeatureReport.Row> rows, List<HBaseFeature> stock) {
        Map<String, String> onBase = stock.stream()
                .collect(Collectors.toMap(f -> f.name, f -> f.at(base).perCell()));
        return rows.stream()
                .filter(r -> !onBase.containsKey(r.feature.name)
                        || !onBase.get(r.feature.name).equals(r.feature.perCell()))
                .toList();
    }

    @Test
    @Order(2)
    void theDocsCarryTheTableThisRunProduced() throws IOException {
        List<String> releases = releases().toList();
        assumeTrue(
                measured.keySet().containsAll(releases),
                "the table is checked after a run of every release (" + releases + "); this run measured "
                        + measured.keySet());
        List<FeatureReport.Row> rows = new ArrayList<>();
        measured.values().forEach(rows::addAll);
        assertEquals(releases.size(), measured.size(), "one run per release");
        FeatureReport report = new FeatureReport(getClass(), base, rows);
        notes.values().forEach(report::note);
        report.check(RegionServerFeaturesTest.repository());
    }

    private static boolean sameLine(String release, String other) {
        return line(release).equals(line(other));
    }

    private static String line(String release) {
        String[] parts = release.split("[.-]");
        return parts[0] + "." + parts[1];
    }
}
