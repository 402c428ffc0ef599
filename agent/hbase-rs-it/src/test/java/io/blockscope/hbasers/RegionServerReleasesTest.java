package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.Scrape;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The older HBase lines operators run (2.4, 2.5; {@link RegionServerAgentTest} runs 2.6), each as a
 * real standalone RegionServer with the agent at start, on JDK 11 (2.4 does not support 17). Each
 * release's whole RegionServer class path is resolved by the build (src/releases/) into
 * {@code blockscope.hbase.releases.dir}; the test JVM's hbase-client stays this module's. Runs when
 * {@code BLOCKSCOPE_TEST_JDKS} has an {@code 11=} entry (.ci/jdks.sh sets it).
 */
class RegionServerReleasesTest {

    /** Probes whose targets every HBase 2.3+ RegionServer with an offheap BucketCache loads on reads. */
    static final List<String> PROBES = List.of("block-get-l1", "block-get-l2", "block-release", "cell-copy");

    static Stream<String> releases() {
        return Stream.of(
                RegionServerProcess.required("blockscope.hbase.releases").split(","));
    }

    @ParameterizedTest(name = "HBase {0}")
    @MethodSource("releases")
    void theAgentCountsExactlyOnARegionServerOfAnOlderRelease(String release) throws Exception {
        Path java = TestJdks.require(11); // skips, saying how to provide JDK 11, when it is not named
        try (RegionServerProcess server = RegionServerProcess.builder()
                        .java(java)
                        .hbaseClassPath(ReleaseClassPath.of(release))
                        .agent("copy.sample=1,leak.sample=1,leak.rate=0")
                        .start();
                ServerJmx jmx = ServerJmx.connect(server.pid());
                Workload workload = Workload.create(server, "release")) {
            System.out.printf(
                    "HBase %s on JDK 11 with the agent started in %d ms%n",
                    release, server.startup().toMillis());
            assertEquals("11", jmx.runtimeVersion().split("\\.")[0], "the RegionServer's java.specification.version");
            assertTrue(
                    Pattern.compile("VersionInfo: HBase " + Pattern.quote(release) + "$", Pattern.MULTILINE)
                            .matcher(server.logTail(Integer.MAX_VALUE))
                            .find(),
                    "the server logs that it is HBase " + release + "; log tail:\n" + server.logTail(40));

            Map<String, Long> hbaseBefore = ServerState.settled(jmx);
            Scrape agentBefore = Scrape.of(server.metricsUri());
            ReadScenario.healthyReads(workload);

            Map<String, Long> hbase = ServerState.settled(jmx);
            Scrape agent = Scrape.of(server.metricsUri());
            Agreement.cacheCountersMatch(agent, agentBefore, hbase, hbaseBefore);
            boolean occupancy = Agreement.occupancyMatchesWhereExported(agent, hbase);
            System.out.printf(
                    "HBase %s: %s%n",
                    release,
                    occupancy
                            ? "BucketCache occupancy compared with l2CacheSize/l2CacheFreeSize"
                            : "no l2CacheSize/l2CacheFreeSize exported: occupancy not compared");
            Agreement.nothingOutstanding(agent);
            double l2Hits = agent.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2")
                    - agentBefore.value("blockscope_block_cache_gets_total", "result", "hit", "tier", "l2");
            double l2Returns = agent.value("blockscope_block_cache_returns_total", "tier", "l2")
                    - agentBefore.value("blockscope_block_cache_returns_total", "tier", "l2");
            assertAll(
                    () -> assertTrue(l2Hits > 0, "the reads hit the BucketCache: " + l2Hits),
                    () -> assertEquals(l2Hits, l2Returns, "every l2 hit given back"),
                    () -> assertEquals(
                            0, agent.sum("blockscope_block_leaks_total", l -> true), "no leak on the healthy path"),
                    () -> PROBES.forEach(probe -> assertEquals(
                            1, agent.value("blockscope_agent_probe_enabled", "probe", probe), probe + " enabled")),
                    () -> assertEquals(
                            List.of(),
                            agent.matching("blockscope_agent_probe_enabled", l -> true).stream()
                                    .filter(s -> s.value() == 0)
                                    .map(s -> s.labels().get("probe"))
                                    .toList(),
                            "probes reported skipped; agent lines:\n" + String.join("\n", server.agentLines())),
                    () -> assertEquals(
                            1,
                            agent.value("blockscope_read_path_mode", "mode", "zero-copy"),
                            "an offheap BucketCache is a zero-copy read path"));
        }
    }
}
