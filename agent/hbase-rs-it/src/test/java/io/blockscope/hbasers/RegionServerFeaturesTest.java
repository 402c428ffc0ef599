package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * HBase's stock filters, comparators, mutations and read options on a real RegionServer with an
 * offheap BucketCache and the agent ({@code copy.sample=1}: every copy named). For each, the copies
 * of offheap cell bytes onto the heap that HBase's source makes (read from the release's classes,
 * cited in {@link HBaseFeature#decidedIn}) against what the agent counted ({@link FeatureCheck}):
 * within 5% and at the site an operator can change; a zero-copy feature counts no avoidable copy. The
 * features are {@link StockFeatures}, which other releases run too. The run renders the table docs/hbase.md carries
 * ({@link FeatureReport}) and fails when the committed one differs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerFeaturesTest {

    private final String release = System.getProperty("blockscope.hbase.version");
    private RegionServerProcess server;
    private Connection connection;
    private StockFeatures stock;
    private FeatureCheck check;
    private final List<FeatureReport.Row> measured = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        server = RegionServerProcess.builder()
                .agent("copy.sample=1,copy.jfr=false,sites=100")
                .start();
        connection = ConnectionFactory.createConnection(server.clientConfiguration());
        stock = StockFeatures.create(connection);
        check = new FeatureCheck(server.metricsUri());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {stock, connection, server}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @TestFactory
    @Order(1)
    List<DynamicTest> eachFeatureCopiesWhatHBasesCodeCopies() {
        return stock.all().stream()
                .map(f -> DynamicTest.dynamicTest(f.name, () -> measured.add(check.measure(f.at(release), release))))
                .collect(Collectors.toList());
    }

    @Test
    @Order(2)
    void theDocsCarryTheTableThisRunProduced() throws IOException {
        FeatureReport report = new FeatureReport(getClass(), release, measured);
        assertEquals(stock.all().size(), measured.size(), "every feature measured");
        report.check(repository());
    }

    static Path repository() {
        return Path.of(System.getProperty("blockscope.dashboards")).getParent();
    }
}
