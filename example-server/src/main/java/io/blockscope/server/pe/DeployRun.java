package io.blockscope.server.pe;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.blockscope.server.jvm.LiveMemory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The raw results of a deploy comparison: what its JSON file holds, written once by the run and
 * read back by the charts and by {@code docs/results/render.py}, so both show the same figures.
 *
 * @param environment as in PE's JSON (JDK, cores, heap, load average at the end)
 * @param settings    the comparison's settings (cache size, threads, loadings' factors, ...)
 */
record DeployRun(
        String tool,
        String finishedAt,
        Map<String, Object> environment,
        Map<String, Object> settings,
        List<DeployResult> deploys) {

    /** One deploy: its cache and its loadings, run back to back in one cache. */
    record DeployResult(String deploy, String cache, List<LoadingResult> loadings) {}

    /**
     * One loading of one deploy: its figures over the whole measured time ({@code totals}) and per
     * tick ({@code samples}), time running on from the deploy's first measured second.
     */
    record LoadingResult(
            String name,
            double factor,
            long rows,
            double expectedHitRatio,
            double loadAverageAtEnd,
            long errors,
            String firstError,
            Figures totals,
            List<Figures> samples) {}

    /**
     * What one stretch of time measured. Nullable figures are null where this JVM cannot tell (never
     * 0 for unknown).
     *
     * @param t                 seconds from the deploy's first measured second to this stretch's end
     * @param allocBytesPerSec  heap bytes allocated per second by every thread of the JVM
     * @param cpuCores          process CPU seconds per second (2.0 = both cores of this machine)
     * @param cacheHitRatio     hits over lookups of every block (index and bloom blocks included)
     * @param dataHitRatio      data blocks found in the cache over data blocks looked up
     * @param fileReadsPerSec   data blocks read from the store files per second (the misses)
     * @param evictedBlocks     blocks the cache evicted in this stretch
     * @param heapAfterGcBytes  heap in use after the last collection, at the stretch's end
     * @param rssBytes          resident set of the process at the stretch's end (Linux)
     * @param directBytes       direct buffer memory in use at the stretch's end
     * @param liveHeapBytes     heap in use after a full collection at the stretch's end, where one
     *     was run ({@code --live-every}); null elsewhere
     * @param liveDirectBytes   direct buffer memory in use after that full collection
     */
    record Figures(
            double t,
            double seconds,
            long ops,
            double opsPerSec,
            double meanMicros,
            double p50Micros,
            double p95Micros,
            double p99Micros,
            double p999Micros,
            double maxMicros,
            long gcPauseCount,
            double gcPauseSeconds,
            double gcPauseSecondsPerSecond,
            Double allocBytesPerSec,
            Double cpuCores,
            Double cacheHitRatio,
            Double dataHitRatio,
            double fileReadsPerSec,
            long evictedBlocks,
            double evictedBlocksPerSec,
            Long heapAfterGcBytes,
            Long rssBytes,
            Long directBytes,
            Long liveHeapBytes,
            Long liveDirectBytes) {

        /** These figures with what a full collection at the stretch's end left live. */
        Figures withLive(LiveMemory.Reading live) {
            return new Figures(
                    t,
                    seconds,
                    ops,
                    opsPerSec,
                    meanMicros,
                    p50Micros,
                    p95Micros,
                    p99Micros,
                    p999Micros,
                    maxMicros,
                    gcPauseCount,
                    gcPauseSeconds,
                    gcPauseSecondsPerSecond,
                    allocBytesPerSec,
                    cpuCores,
                    cacheHitRatio,
                    dataHitRatio,
                    fileReadsPerSec,
                    evictedBlocks,
                    evictedBlocksPerSec,
                    heapAfterGcBytes,
                    rssBytes,
                    directBytes,
                    live.heapBytes(),
                    live.directBytes());
        }
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper().writeValue(file.toFile(), this);
    }

    /**
     * Reads FILE.json, or FILE.json.gz through gzip (docs/results/ commits big raw files compressed).
     *
     * @throws IOException naming the file when it is not a deploy comparison's JSON
     */
    static DeployRun read(Path file) throws IOException {
        DeployRun run;
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            run = mapper().readValue(in, DeployRun.class);
        } catch (IOException e) {
            throw new IOException(
                    file + " is not the JSON of a deploy comparison (pe --loadings ... --json): " + e.getMessage(), e);
        }
        if (run.deploys() == null || run.deploys().isEmpty()) {
            throw new IOException(file + " holds no deploy: is it the JSON of a deploy comparison (pe --loadings)?");
        }
        return run;
    }
}
