package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code CopyingReader} clones values and qualifiers out of offheap {@code ByteBufferKeyValue}s,
 * through {@code getXxxArray()}, {@code CellUtil}'s clones and copies, a comparator's inherited
 * buffer path and {@code PrivateCellUtil.getValueAsBigDecimal}: the agent counts each copy once with its bytes and the driver's method as the site
 * (with the comparator's class for the comparator's copies), and does not count reads of a heap
 * {@code KeyValue} or of a cell over a heap buffer. A tag's value copied out of an offheap cell
 * ({@code Tag.cloneValue}, {@code Tag.copyValueTo}: how the AccessController reads a cell ACL) is a
 * tags copy; the same of a heap-backed tag is not. Also in a JVM without hbase-server, where only the cell probes
 * have targets and the rest are reported as skipped.
 */
class AgentCopyTest {

    private static final String DRIVER = "io.blockscope.hbaseit.driver.CopyingReader.";

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void offheapCellCopiesAreCountedWithBytesAndSite(HBaseInstall hbase) {
        verify(DriverJvm.of("CopyingReader").hbase(hbase), hbase.toString());
    }

    /** The scenario on {@code driver} (a CopyingReader with its HBase and JDK chosen). */
    static void verify(DriverJvm.Builder driver, String where) {
        try (DriverJvm jvm = driver.agent("copy.sample=1").start()) {
            Checkpoint copied = jvm.await("copied");
            assertCopies(copied, jvm.scrape(), where);
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.blockscope.hbaseit.HBaseInstall#all")
    void withoutHBaseServerOnlyTheCellProbesAreEnabled(HBaseInstall hbase) {
        verifyWithoutServer(DriverJvm.of("CopyingReader").hbase(hbase), hbase.toString());
    }

    /** Missing target classes: the scenario on {@code driver} with hbase-server left off the class path. */
    static void verifyWithoutServer(DriverJvm.Builder driver, String at) {
        try (DriverJvm jvm = driver.withoutServer().agent("copy.sample=1").start()) {
            Checkpoint copied = jvm.await("copied");
            Scrape scrape = jvm.scrape();
            String where = at + " without hbase-server";
            assertCopies(copied, scrape, where);

            assertEquals(1, scrape.value("blockscope_agent_probe_enabled", "probe", "cell-copy"), where);
            for (String probe :
                    List.of("block-get-l1", "block-get-l2", "block-return", "block-release", "bucket-occupancy")) {
                assertEquals(0, scrape.value("blockscope_agent_probe_enabled", "probe", probe), where + ": " + probe);
            }
            assertTrue(
                    jvm.agentLine(
                                    Pattern.compile(
                                            "probes with targets: .*cell-copy.*skipped: .*block-get-l2 \\(.*not on the class path"))
                            .isPresent(),
                    where + ": the startup log says which probes were enabled and which skipped:\n" + jvm.log());
            assertTrue(
                    scrape.matching("blockscope_bucket_slots", l -> true).isEmpty(),
                    where + ": no bucket cache, no occupancy");
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    private static void assertCopies(Checkpoint copied, Scrape scrape, String where) {
        assertEquals(
                1,
                scrape.value(
                        "blockscope_agent_info",
                        "profile",
                        "hbase2",
                        "version",
                        AgentReferenceMetricsTest.agentVersion(scrape)),
                where + ": profile hbase2 chosen automatically");
        // getValueArray, CellUtil's clones and copies, and the comparator's copies: each once
        assertEquals(
                copied.number("copies.value")
                        + copied.number("copies.cloned")
                        + copied.number("copies.into")
                        + copied.number("copies.compared")
                        + copied.number("copies.converted"),
                scrape.value("blockscope_copy_to_heap_total", "component", "value"),
                where + ": every offheap value copy once, whatever API made it; none of the heap-backed cell's");
        assertEquals(
                copied.number("copies.value.bytes")
                        + copied.number("copies.cloned.bytes")
                        + copied.number("copies.into.bytes")
                        + copied.number("copies.compared.bytes")
                        + copied.number("copies.converted.bytes"),
                scrape.value("blockscope_copy_to_heap_bytes_total", "component", "value"),
                where);
        assertEquals(
                copied.number("copies.qualifier"),
                scrape.value("blockscope_copy_to_heap_total", "component", "qualifier"),
                where);
        assertEquals(
                copied.number("copies.qualifier.bytes"),
                scrape.value("blockscope_copy_to_heap_bytes_total", "component", "qualifier"),
                where);
        for (String component : List.of("row", "family")) {
            assertEquals(
                    0,
                    scrape.value("blockscope_copy_to_heap_total", "component", component),
                    where + ": no " + component + " copies (heap KeyValue reads are not copies)");
        }
        assertEquals(
                copied.number("copies.tag.cloned") + copied.number("copies.tag.into"),
                scrape.value("blockscope_copy_to_heap_total", "component", "tags"),
                where + ": the offheap cell's tag values, none of the heap-backed tags'");
        assertEquals(
                copied.number("copies.tag.cloned.bytes") + copied.number("copies.tag.into.bytes"),
                scrape.value("blockscope_copy_to_heap_bytes_total", "component", "tags"),
                where);
        assertSite(scrape, DRIVER + "readValues:", copied.number("copies.value"), copied.number("copies.value.bytes"));
        assertSite(
                scrape, DRIVER + "cloneValues:", copied.number("copies.cloned"), copied.number("copies.cloned.bytes"));
        assertSite(
                scrape, DRIVER + "copyValuesInto:", copied.number("copies.into"), copied.number("copies.into.bytes"));
        assertSite(
                scrape,
                "io.blockscope.hbaseit.driver.CopyingReader(CopyingComparator).compareValues:",
                copied.number("copies.compared"),
                copied.number("copies.compared.bytes"));
        assertSite(
                scrape,
                DRIVER + "cloneTagValues:",
                copied.number("copies.tag.cloned"),
                copied.number("copies.tag.cloned.bytes"));
        assertSite(
                scrape,
                DRIVER + "copyTagValuesInto:",
                copied.number("copies.tag.into"),
                copied.number("copies.tag.into.bytes"));
        assertSite(
                scrape,
                DRIVER + "convertValues:",
                copied.number("copies.converted"),
                copied.number("copies.converted.bytes"));
        assertSite(
                scrape,
                DRIVER + "readQualifiers:",
                copied.number("copies.qualifier"),
                copied.number("copies.qualifier.bytes"));
    }

    private static void assertSite(Scrape scrape, String sitePrefix, long calls, long bytes) {
        List<Scrape.Sample> sites = scrape.matching(
                "blockscope_copy_site_calls_total",
                l -> l.getOrDefault("site", "").startsWith(sitePrefix));
        assertEquals(
                1,
                sites.size(),
                "one copy site " + sitePrefix + "<line>:\n" + scrape.describe("blockscope_copy_site_calls_total"));
        String site = sites.get(0).labels().get("site");
        assertTrue(Pattern.matches(Pattern.quote(sitePrefix) + "\\d+", site), "site carries the line number: " + site);
        assertEquals(calls, sites.get(0).value(), "calls at " + site);
        assertEquals(bytes, scrape.value("blockscope_copy_site_bytes_total", "site", site), "bytes at " + site);
    }
}
