package io.blockscope.server.cli;

import io.blockscope.server.load.TableManifest;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "load",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {
            "Writes a generated table into store files, like PE sequentialWrite: row keys 0..N-1 as 26-digit numbers, "
                    + "one family 'info', 1..10 qualifiers, values of fixed, random or zipfian size. The table goes to DIR/<table>; "
                    + "serve --data DIR serves every table in DIR.",
            ""
        })
final class LoadCommand implements Callable<Integer> {

    @Option(
            names = "--data",
            required = true,
            paramLabel = "DIR",
            description = "Data directory to write the table into.")
    Path data;

    @Option(names = "--rows", required = true, paramLabel = "N", description = "Rows to write.")
    long rows;

    @Mixin
    TableOptions table;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Properties file of option defaults (keys are option names without dashes, e.g. rows=100000).")
    Path config;

    @Override
    public Integer call() throws Exception {
        TableManifest manifest = table.load(data, rows, System.err);
        System.out.println("loaded table " + manifest.spec().name() + ": "
                + manifest.spec().rows() + " rows in " + manifest.storeFiles().size() + " store files under "
                + data.resolve(manifest.spec().name()));
        return 0;
    }
}
