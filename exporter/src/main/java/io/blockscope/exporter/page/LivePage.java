package io.blockscope.exporter.page;

import io.blockscope.exporter.Log;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The live page of the agent's endpoint: {@code /} (the page), {@code /live} (its refreshing part)
 * and {@code /live.js} (its script), and the runbooks and HBase findings it links to, {@code /runbooks},
 * {@code /findings} and {@code /findings-security}. Transport neutral: an endpoint asks {@link #reply} for a path
 * and writes what it gets, so the page sits behind the same TLS and auth as {@code /metrics}.
 *
 * <p>Rates and charts need a history, so the page samples the registry's {@code blockscope_*}
 * series every {@link #SAMPLE_MS} ms on one daemon thread. Sampling starts with the first page
 * request (a JVM whose page nobody opens pays nothing), which waits a second for a second sample so
 * that it can show rates, and stops after {@link #IDLE_MS} without a request.
 */
public final class LivePage {

    public static final String PAGE = "/";
    public static final String FRAGMENT = "/live";
    public static final String SCRIPT = "/live.js";

    static final long SAMPLE_MS = 2_000;
    /** What the first request waits for its second sample. */
    static final long FIRST_RATE_MS = 1_000;

    static final long IDLE_MS = 10 * 60_000;
    /** Five minutes of samples. */
    static final int HISTORY = 150;

    /** Headers for every reply: nothing external may load, nothing may frame the page. */
    private static final Map<String, String> HEADERS;

    static {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self';"
                        + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Cache-Control", "no-store");
        h.put("Referrer-Policy", "no-referrer");
        HEADERS = Collections.unmodifiableMap(h);
    }

    /** What to send for one request. */
    public static final class Reply {
        private final int status;
        private final String contentType;
        private final byte[] body;

        Reply(int status, String contentType, byte[] body) {
            this.status = status;
            this.contentType = contentType;
            this.body = body;
        }

        public int status() {
            return status;
        }

        public String contentType() {
            return contentType;
        }

        public byte[] body() {
            return body.clone();
        }

        /** Extra response headers (security policy, no caching). */
        public Map<String, String> headers() {
            return HEADERS;
        }
    }

    private final PrometheusRegistry registry;
    private final LongSupplier clock;
    private final LongConsumer pause;
    private final History history = new History(HISTORY);
    private final Object lifecycle = new Object();
    private ScheduledExecutorService sampler;
    private volatile long lastRequestMillis;

    public LivePage(PrometheusRegistry registry) {
        this(registry, System::currentTimeMillis, LivePage::sleep);
    }

    LivePage(PrometheusRegistry registry, LongSupplier clock, LongConsumer pause) {
        this.registry = registry;
        this.clock = clock;
        this.pause = pause;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The runbooks, as a page ({@link Documents}): where the page's and the alerts' runbook links go. */
    public static final String RUNBOOKS = Documents.RUNBOOKS.path;
    /** HBase's own copies, confirmed on real RegionServers ({@link Findings}): where a site's finding link goes. */
    public static final String FINDINGS = Documents.FINDINGS.path;

    public static final String FINDINGS_SECURITY = Documents.FINDINGS_SECURITY.path;

    /** True for the paths this page serves. */
    public static boolean serves(String path) {
        return PAGE.equals(path) || FRAGMENT.equals(path) || SCRIPT.equals(path) || Documents.at(path) != null;
    }

    /** The reply for {@code path}, or null when it is not one of the page's paths. Never throws. */
    public Reply reply(String path) {
        try {
            if (SCRIPT.equals(path)) {
                return new Reply(200, "text/javascript; charset=utf-8", Script.BYTES);
            }
            PackagedPage document = Documents.at(path);
            if (document != null) {
                return document.reply(); // static text: no sampling
            }
            if (!PAGE.equals(path) && !FRAGMENT.equals(path)) {
                return null;
            }
            lastRequestMillis = clock.getAsLong();
            ensureSampling();
            ReadPathView view = ReadPathView.of(history, clock.getAsLong());
            byte[] body = PAGE.equals(path)
                    ? PageRenderer.page(view, SCRIPT.substring(1), FRAGMENT.substring(1))
                    : PageRenderer.fragment(view);
            return new Reply(200, "text/html; charset=utf-8", body);
        } catch (RuntimeException | LinkageError e) {
            Log.warnOnce("live-page", "the live page failed; /metrics is unaffected", e);
            return new Reply(
                    500,
                    "text/plain; charset=utf-8",
                    "The live page failed; see the host's stderr. Metrics are at /metrics.\n"
                            .getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Takes one sample now (also what the sampler thread runs). */
    void sample() {
        history.add(Sample.of(registry.scrape(name -> name.startsWith("blockscope_")), clock.getAsLong()));
    }

    History history() {
        return history;
    }

    private void ensureSampling() {
        synchronized (lifecycle) {
            if (sampler != null) {
                return;
            }
            Sample latest = history.latest();
            if (latest == null || clock.getAsLong() - latest.timeMillis >= ReadPathView.RATE_WINDOW_MS) {
                // Two samples a second apart, so that the first page already shows rates, never a
                // verdict drawn from figures without a rate.
                sample();
                pause.accept(FIRST_RATE_MS);
                sample();
            } else if (clock.getAsLong() - latest.timeMillis >= SAMPLE_MS) {
                sample();
            }
            ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "blockscope-live-page");
                t.setDaemon(true);
                return t;
            });
            s.scheduleWithFixedDelay(this::tick, SAMPLE_MS, SAMPLE_MS, TimeUnit.MILLISECONDS);
            sampler = s;
        }
    }

    private void tick() {
        try {
            if (clock.getAsLong() - lastRequestMillis > IDLE_MS) {
                stop();
                return;
            }
            sample();
        } catch (RuntimeException | LinkageError e) {
            Log.warnOnce("live-page-sample", "the live page could not sample the metrics; it shows older figures", e);
        }
    }

    /** Stops sampling; the next page request starts it again. */
    public void stop() {
        synchronized (lifecycle) {
            if (sampler != null) {
                sampler.shutdownNow();
                sampler = null;
            }
        }
    }
}
