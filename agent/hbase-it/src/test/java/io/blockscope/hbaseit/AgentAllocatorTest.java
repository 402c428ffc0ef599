package io.blockscope.hbaseit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blockscope.testsupport.Scrape;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code AllocatingDriver} drives HBase's own {@code ByteBuffAllocator} (2.3 and later) into each
 * heap fallback from a method of its own: the agent counts each by reason with its bytes, names the
 * driver's method as the site, and reads HBase's own heap and pool byte counters and buffer counts
 * off the captured allocators. 2.2 has no such allocator: {@code AgentReferenceMetricsTest} checks
 * that the probe is then not reported as skipped.
 */
class AgentAllocatorTest {

    private static final String DRIVER = "io.blockscope.hbaseit.driver.AllocatingDriver.";
    /** The driver's pool buffer size. */
    private static final long BUFFER = 1024;
    /** The driver's pool size, in buffers. */
    private static final long MAX_BUFFERS = 2;

    private static final List<String> REASONS = List.of("below_min_size", "pool_exhausted", "pool_disabled");

    static List<HBaseInstall> withAllocator() {
        return HBaseInstall.all().stream().filter(HBaseInstall::refCounted).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withAllocator")
    void heapFallbacksAreCountedByReasonAndSiteAndHBasesOwnFiguresAreRead(HBaseInstall hbase) {
        try (DriverJvm jvm = DriverJvm.of("AllocatingDriver")
                .hbase(hbase)
                .agent("copy.sample=1")
                .start()) {
            String at = hbase + ": ";
            Checkpoint pooled = jvm.await("pooled");
            Scrape beforeAnyHeapAllocation = jvm.scrape();
            assertAll(
                    () -> assertEquals(
                            1, pooled.number("buffers.created") - pooled.number("buffers.free"), at + "one taken"),
                    () -> assertEquals(
                            1,
                            beforeAnyHeapAllocation.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                            at + "the pool is read before its first heap allocation"),
                    () -> assertEquals(
                            MAX_BUFFERS,
                            beforeAnyHeapAllocation.value("blockscope_allocator_pool_buffers_max"),
                            at + "most buffers, before any heap allocation"));
            jvm.proceed();
            Checkpoint cp = jvm.await("allocated");
            Scrape scrape = jvm.scrape();
            long heapBytes = 0;
            for (String reason : REASONS) {
                heapBytes += cp.number(reason + ".bytes");
                assertEquals(
                        cp.number(reason + ".calls"),
                        scrape.value("blockscope_allocator_heap_fallbacks_total", "reason", reason),
                        at + reason + " calls");
                assertEquals(
                        cp.number(reason + ".bytes"),
                        scrape.value("blockscope_allocator_heap_fallback_bytes_total", "reason", reason),
                        at + reason + " bytes");
            }
            long ours = heapBytes;
            assertAll(
                    () -> assertEquals(cp.number("hbase.heap.bytes"), ours, at + "HBase's own heap bytes, ours"),
                    () -> assertEquals(
                            cp.number("hbase.heap.bytes"),
                            scrape.value("blockscope_allocator_bytes_total", "source", "heap"),
                            at + "HBase's heap bytes as exported"),
                    () -> assertEquals(
                            cp.number("hbase.pool.bytes"),
                            scrape.value("blockscope_allocator_bytes_total", "source", "pool"),
                            at + "HBase's pool bytes as exported"),
                    () -> assertEquals(4L * BUFFER, cp.number("hbase.pool.bytes"), at),
                    () -> assertEquals(
                            cp.number("buffers.max"),
                            scrape.value("blockscope_allocator_pool_buffers_max"),
                            at + "most buffers"),
                    () -> assertEquals(
                            cp.number("buffers.max") * cp.number("buffer.size"),
                            scrape.value("blockscope_allocator_pool_capacity_bytes"),
                            at + "pool capacity"),
                    () -> assertEquals(
                            cp.number("buffers.free"),
                            scrape.value("blockscope_allocator_pool_buffers", "state", "free"),
                            at + "free buffers"),
                    () -> assertEquals(
                            cp.number("buffers.created") - cp.number("buffers.free"),
                            scrape.value("blockscope_allocator_pool_buffers", "state", "in_use"),
                            at + "buffers in use"),
                    () -> assertEquals(
                            1, scrape.value("blockscope_agent_probe_enabled", "probe", "allocator-heap-fallback")));

            assertSite(scrape, "belowMinimum:", "below_min_size", 1, 100);
            assertSite(scrape, "takeWholePool:", "below_min_size", 1, 100);
            assertSite(scrape, "whileExhausted:", "pool_exhausted", 1, 1500);
            assertSite(scrape, "oneBufferWhileExhausted:", "pool_exhausted", 1, BUFFER);
            assertSite(scrape, "withoutPool:", "pool_disabled", 1, 300);
            assertEquals(
                    5,
                    scrape.matching("blockscope_allocator_heap_fallback_site_calls_total", l -> true)
                            .size(),
                    at + "one series per site and reason: "
                            + scrape.describe("blockscope_allocator_heap_fallback_site_calls_total"));
            jvm.proceed();
            assertEquals(0, jvm.finish(), jvm.log());
        }
    }

    private static void assertSite(Scrape scrape, String method, String reason, long calls, long bytes) {
        List<Scrape.Sample> sites = scrape.matching(
                "blockscope_allocator_heap_fallback_site_calls_total",
                l -> l.getOrDefault("site", "").startsWith(DRIVER + method) && reason.equals(l.get("reason")));
        assertEquals(
                1,
                sites.size(),
                "one site " + DRIVER + method + "<line> for " + reason + ":\n"
                        + scrape.describe("blockscope_allocator_heap_fallback_site_calls_total"));
        String site = sites.get(0).labels().get("site");
        assertEquals(true, Pattern.matches(Pattern.quote(DRIVER + method) + "\\d+", site), site);
        assertEquals(calls, sites.get(0).value(), "calls at " + site);
        assertEquals(
                bytes,
                scrape.value("blockscope_allocator_heap_fallback_site_bytes_total", "site", site, "reason", reason),
                "bytes at " + site);
    }
}
