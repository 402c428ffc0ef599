package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code LeakingReader} drops one checked-out block and holds another forever: the agent must
 * report a {@code gc} leak and an {@code age} leak, each at the driver's own method.
 */
class AgentLeakTest {

    private static final String DRIVER = "io.blockscope.hbaseit.driver.LeakingReader.";
    private static final long DEADLINE_NANOS = 30_000_000_000L;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void forgottenAndHoardedBlocksAreLeaksAtTheirSites(HBaseInstall hbase) throws InterruptedException {
        verify(DriverJvm.of("LeakingReader").hbase(hbase), jvm -> {});
    }

    /**
     * The scenario on {@code driver} (a LeakingReader with its HBase and JDK chosen); {@code more}
     * looks at the JVM after the leaks are seen (it has run a System.gc()), before it ends.
     */
    static void verify(DriverJvm.Builder driver, Consumer<DriverJvm> more) throws InterruptedException {
        try (DriverJvm jvm =
                driver.agent("leak.sample=1,leak.rate=0,leak.age=2s").start()) {
            jvm.await("leaked");
            Scrape scrape = awaitLeaks(jvm);

            assertLeak(scrape, "gc", DRIVER + "checkOutAndForget:");
            assertLeak(scrape, "age", DRIVER + "checkOutAndKeep:");
            double total = scrape.matching("blockscope_block_leaks_total", l -> true).stream()
                    .mapToDouble(Scrape.Sample::value)
                    .sum();
            assertEquals(
                    2,
                    total,
                    "only the two bugs leak, never the reads that give blocks back:\n"
                            + scrape.describe("blockscope_block_leaks_total"));
            assertEquals(
                    2,
                    scrape.value("blockscope_block_refs_outstanding", "tier", "l2"),
                    "the two leaked references are still outstanding");
            assertTrue(
                    jvm.agentLine(Pattern.compile("leak.*LeakingReader\\.checkOutAnd(Forget|Keep)"))
                            .isPresent(),
                    "the first leak is logged with its site:\n" + jvm.log());
            more.accept(jvm);
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    private static void assertLeak(Scrape scrape, String reason, String sitePrefix) {
        List<Scrape.Sample> leaks = scrape.matching(
                "blockscope_block_leaks_total",
                l -> reason.equals(l.get("reason"))
                        && l.getOrDefault("site", "").startsWith(sitePrefix));
        assertEquals(
                1,
                leaks.size(),
                "one " + reason + " leak series at " + sitePrefix + "<line>:\n"
                        + scrape.describe("blockscope_block_leaks_total"));
        assertEquals(1, leaks.get(0).value(), "leaks at " + leaks.get(0).labels());
        assertTrue(
                Pattern.matches(
                        Pattern.quote(sitePrefix) + "\\d+",
                        leaks.get(0).labels().get("site")),
                "site carries the line number: " + leaks.get(0).labels());
    }

    private static boolean leaked(Scrape scrape, String reason) {
        return scrape.matching("blockscope_block_leaks_total", l -> reason.equals(l.get("reason"))).stream()
                .anyMatch(s -> s.value() > 0);
    }

    /** Leaks are found on a later checkout or scrape, after a GC: poll until both show up. */
    private static Scrape awaitLeaks(DriverJvm jvm) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            Scrape scrape = jvm.scrape();
            if ((leaked(scrape, "gc") && leaked(scrape, "age")) || System.nanoTime() > deadline) {
                return scrape;
            }
            Thread.sleep(250);
        }
    }
}
