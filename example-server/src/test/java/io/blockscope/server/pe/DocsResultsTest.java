package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' benchmark tables against their committed raw outputs (docs/results/render.py --check):
 * every rendered table equals what its raw file renders to, every other table of a benchmarks*.md page
 * says why it has no raw file, every raw file is cited by a page, and docs/ stays under 3,000,000 bytes (big raw
 * files are committed as gzip-compressed FILE.json.gz, which render.py reads like FILE.json).
 */
class DocsResultsTest {

    private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();
    private static final String COMPRESSED = "results/agent-switch-final-aa-block-copy-cap-1-2026-11-27.json.gz";

    @TempDir
    Path copy;

    private record Result(int exit, String output) {}

    @Test
    void everyRenderedTableMatchesItsRawFileAndEveryOtherTableSaysWhyItHasNone() throws Exception {
        Result r = check(DOCS);
        assertEquals(0, r.exit(), r.output());
    }

    @Test
    void aFigureThatDisagreesWithItsRawFileFailsTheCheck() throws Exception {
        Path docs = copyOfDocs();
        Path raw = docs.resolve("results/pe-readpath-runC-2026-11-25.json");
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = (ObjectNode) mapper.readTree(raw.toFile());
        ObjectNode first = (ObjectNode) root.path("records").get(0);
        first.put("opsPerSec", first.path("opsPerSec").asDouble() + 100);
        mapper.writeValue(raw.toFile(), root);
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("benchmarks.md: a rendered table differs from its raw file"), r.output());
    }

    @Test
    void aTableWithoutRawFileOrReasonFailsTheCheck() throws Exception {
        Path docs = copyOfDocs();
        Path doc = docs.resolve("benchmarks.md");
        String text = Files.readString(doc);
        // the first marker line (the prose above names the marker too, inside backticks)
        int marker = text.indexOf("\n<!-- no raw file:") + 1;
        assertTrue(marker > 0, "benchmarks.md has no 'no raw file' marker line");
        String stripped = text.substring(0, marker) + text.substring(text.indexOf("-->", marker) + 3);
        Files.writeString(doc, stripped);
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("a table with neither its raw file"), r.output());
    }

    @Test
    void aTableWithoutRawFileOnAnotherBenchmarksPageFailsTheCheck() throws Exception {
        Path docs = copyOfDocs();
        Path doc = docs.resolve("benchmarks-deploys.md");
        Files.writeString(doc, Files.readString(doc) + "\n## More\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("benchmarks-deploys.md:"), r.output());
        assertTrue(r.output().contains("a table with neither its raw file"), r.output());
    }

    @Test
    void aRawFileNoPageCitesFailsTheCheck() throws Exception {
        Path docs = copyOfDocs();
        Files.copy(
                docs.resolve("results/pe-readpath-runC-2026-11-25.json"),
                docs.resolve("results/pe-readpath-uncited.json"));
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("results/pe-readpath-uncited.json: no page of docs/ cites it"), r.output());
    }

    @Test
    void aCompressedRawFileIsReadSoAChangedFigureInItFailsTheCheck() throws Exception {
        Path docs = copyOfDocs();
        Path raw = docs.resolve(COMPRESSED);
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(raw))) {
            root = (ObjectNode) mapper.readTree(in);
        }
        ObjectNode extra = (ObjectNode) root.path("extraCpuPerOpPercent");
        extra.put("median", extra.path("median").asDouble() + 1);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(raw))) {
            mapper.writeValue(out, root);
        }
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("benchmarks.md: a rendered table differs from its raw file"), r.output());
    }

    @Test
    void anUncompressedCopyBesideItsCitedGzipFileIsUncited() throws Exception {
        Path docs = copyOfDocs();
        String json = COMPRESSED.substring(0, COMPRESSED.length() - ".gz".length());
        try (InputStream in = new GZIPInputStream(Files.newInputStream(docs.resolve(COMPRESSED)))) {
            Files.copy(in, docs.resolve(json));
        }
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains(json + ": no page of docs/ cites it"), r.output());
    }

    @Test
    void docsOfThreeMillionBytesOrMoreFailTheCheck() throws Exception {
        Path docs = copyOfDocs();
        long size;
        try (Stream<Path> files = Files.walk(docs)) {
            size = files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        }
        Files.createDirectories(docs.resolve("images"));
        Files.write(docs.resolve("images/big.png"), new byte[(int) (3_000_000 - size)]);
        Result r = check(docs);
        assertEquals(1, r.exit(), r.output());
        assertTrue(r.output().contains("docs/ holds 3,000,000 bytes; it must stay under 3,000,000"), r.output());
    }

    private Path copyOfDocs() throws IOException {
        Path docs = copy.resolve("docs");
        Files.createDirectories(docs.resolve("results"));
        for (Path dir : List.of(DOCS, DOCS.resolve("results"))) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(f, docs.resolve(DOCS.relativize(f).toString()));
                }
            }
        }
        return docs;
    }

    private static Result check(Path docs) throws Exception {
        Process p = new ProcessBuilder(
                        "python3", docs.resolve("results/render.py").toString(), "--check", "--docs", docs.toString())
                .redirectErrorStream(true)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "render.py did not finish");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
