package io.blockscope.exporter.endpoint;

import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * What both endpoints' scrape exchanges share: the body stream (gzip at the fastest level when the
 * scraper asks for it), the first failure, and closing the body exactly once.
 */
public abstract class ScrapeExchange implements PrometheusHttpExchange {

    private static final int GZIP_BUFFER = 8192;

    /** The response body, once the handler asked for it; null before. */
    protected OutputStream body;

    private Exception failure;

    /** {@code out} gzipped at the fastest level: a scrape is small, latency matters more than bytes. */
    protected static OutputStream fastGzip(OutputStream out) throws IOException {
        return new GZIPOutputStream(out, GZIP_BUFFER) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        };
    }

    @Override
    public final void handleException(IOException e) {
        failure = e;
    }

    @Override
    public final void handleException(RuntimeException e) {
        failure = e;
    }

    /** Completes the body (a no-op if the handler already closed it). */
    @Override
    public final void close() {
        if (body != null) {
            try {
                body.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    /** What went wrong while scraping or writing, or null. */
    public final Exception failure() {
        return failure;
    }
}
