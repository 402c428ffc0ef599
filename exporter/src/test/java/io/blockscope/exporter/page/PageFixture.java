package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;

/**
 * What the page tests share: a live page over a fresh registry with the copy and block-cache counters
 * they all feed, on a clock the test moves (the page's own sleeps move it too). JUnit makes one per test.
 */
abstract class PageFixture {

    final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    final PrometheusRegistry registry = new PrometheusRegistry();
    final Counter siteBytes = counter(registry, "blockscope_copy_site_bytes_total", "site");
    final Counter componentBytes = counter(registry, "blockscope_copy_to_heap_bytes_total", "component");
    final Counter gets = counter(registry, "blockscope_block_cache_gets_total", "tier", "result");
    final LivePage page = new LivePage(registry, clock::get, clock::addAndGet);

    @AfterEach
    void stopPage() {
        page.stop();
    }

    /** A counter registered in {@code registry}. */
    static Counter counter(PrometheusRegistry registry, String name, String... labels) {
        return Counter.builder().name(name).labelNames(labels).register(registry);
    }

    /** The body of an HTML reply, after checking that it is one. */
    static String html(LivePage.Reply reply) {
        assertEquals(200, reply.status(), new String(reply.body(), StandardCharsets.UTF_8));
        assertEquals("text/html; charset=utf-8", reply.contentType());
        return new String(reply.body(), StandardCharsets.UTF_8);
    }

    /** How often {@code needle} occurs in {@code text}. */
    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
