package io.blockscope.hbasers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an operator's Prometheus does to the agent while {@link WholeAgentCost} measures it: a scrape
 * of its endpoint every 15 s, so the exporter's cost is in the B arm's CPU. Also reads the agent's
 * event counters, so the window's events per operation can price the advice part by part.
 */
final class AgentScrapes implements AutoCloseable {

    /** Prometheus' default scrape interval, and the mixin's. */
    static final Duration INTERVAL = Duration.ofSeconds(15);

    /** Counter families whose samples are the advice's events (lookups, returns, copies, fallbacks). */
    private static final String[] EVENT_FAMILIES = {
        "blockscope_block_cache_gets_total{",
        "blockscope_block_cache_returns_total{",
        "blockscope_copy_to_heap_total{",
        "blockscope_allocator_heap_fallbacks_total{"
    };

    private final URI metrics;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread scraper;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    private AgentScrapes(URI metrics) {
        this.metrics = metrics;
        this.scraper = new Thread(this::scrapeEvery, "agent-scrapes");
        scraper.setDaemon(true);
    }

    /** Starts scraping {@code metrics} now and every {@link #INTERVAL}. */
    static AgentScrapes start(URI metrics) {
        AgentScrapes s = new AgentScrapes(metrics);
        s.scraper.start();
        return s;
    }

    private void scrapeEvery() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                get();
                scrapes.incrementAndGet();
                Thread.sleep(INTERVAL.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                failures.incrementAndGet();
            }
        }
    }

    long scrapes() {
        return scrapes.get();
    }

    long failures() {
        return failures.get();
    }

    /** Every event counter sample (series as exposed, value), from one scrape now. */
    Map<String, Double> eventCounters() throws IOException, InterruptedException {
        return eventCounters(get());
    }

    /** The samples of {@link #EVENT_FAMILIES} in a text exposition. */
    static Map<String, Double> eventCounters(String exposition) {
        Map<String, Double> counters = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            for (String family : EVENT_FAMILIES) {
                if (line.startsWith(family)) {
                    int end = line.lastIndexOf('}');
                    String[] value = line.substring(end + 1).trim().split(" ");
                    counters.put(line.substring(0, end + 1), Double.parseDouble(value[0]));
                }
            }
        }
        return counters;
    }

    /** Each series' increase from {@code before} to {@code after}, per operation. */
    static Map<String, Double> perOperation(Map<String, Double> before, Map<String, Double> after, long ops) {
        Map<String, Double> per = new TreeMap<>();
        after.forEach((series, value) -> per.put(series, (value - before.getOrDefault(series, 0.0)) / ops));
        return per;
    }

    private String get() throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(metrics + " answered " + response.statusCode());
        }
        return response.body();
    }

    @Override
    public void close() {
        scraper.interrupt();
    }
}
