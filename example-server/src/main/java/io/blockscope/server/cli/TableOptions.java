package io.blockscope.server.cli;

import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How a generated table looks: shared by {@code load} and by the auto-load of {@code serve} and {@code pe}. */
final class TableOptions {

    @Option(
            names = "--table",
            paramLabel = "NAME",
            defaultValue = "TestTable",
            description = "Table name (the table's directory under the data directory). Default: ${DEFAULT-VALUE}.")
    String table;

    @Option(
            names = "--qualifiers",
            paramLabel = "1..10",
            defaultValue = "1",
            description = "Columns per row (qualifiers 0..N-1 of family 'info'). Default: ${DEFAULT-VALUE}.")
    int qualifiers;

    @Option(
            names = "--value-size",
            paramLabel = "BYTES",
            defaultValue = "1000",
            converter = Converters.Size.class,
            description = "Value size in bytes (the maximum for random and zipf). Default: ${DEFAULT-VALUE}.")
    long valueSize;

    @Option(
            names = "--value-dist",
            paramLabel = "fixed|random|zipf",
            defaultValue = "fixed",
            converter = Converters.ValueDist.class,
            description =
                    "Value sizes: fixed, uniform 0..size (random), or zipfian 1..size (zipf). Default: ${DEFAULT-VALUE}.")
    ValueDistribution valueDistribution;

    @Option(
            names = "--block-size",
            paramLabel = "BYTES",
            defaultValue = "65536",
            converter = Converters.Size.class,
            description = "Target data block size. Default: ${DEFAULT-VALUE}.")
    long blockSize;

    @Option(
            names = "--files",
            paramLabel = "N",
            defaultValue = "2",
            description =
                    "Store files per table; rows are dealt round-robin, so reads merge them. Default: ${DEFAULT-VALUE}.")
    int files;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            description = "Seed of the generated values (same seed, same bytes). Default: ${DEFAULT-VALUE}.")
    long seed;

    TableSpec spec(long rows) {
        if (valueSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--value-size " + valueSize + " is too large");
        }
        return new TableSpec(
                table, rows, qualifiers, (int) valueSize, valueDistribution, seed, System.currentTimeMillis());
    }

    /** Loads {@code rows} rows into {@code dataDirectory}, reporting progress on {@code log}. */
    TableManifest load(Path dataDirectory, long rows, PrintStream log) throws IOException {
        if (blockSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--block-size " + blockSize + " is too large");
        }
        TableSpec spec = spec(rows);
        long start = System.nanoTime();
        log.println(
                "[load] " + spec + ", " + files + " store files, " + blockSize + " B blocks, into " + dataDirectory);
        TableManifest manifest =
                TableLoader.load(dataDirectory, spec, (int) blockSize, files, line -> log.println("[load] " + line));
        log.printf("[load] done in %.1f s%n", (System.nanoTime() - start) / 1e9);
        return manifest;
    }
}
