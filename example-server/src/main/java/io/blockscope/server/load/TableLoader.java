package io.blockscope.server.load;

import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.storefile.StoreFileWriter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes a generated table (PE {@code sequentialWrite} style) into store files. Rows are dealt
 * round-robin to the files, so every file covers the whole key range and every read has to merge
 * them, as a region with several flushed files does.
 */
public final class TableLoader {

    /** Store file names: {@code storefile-0}, {@code storefile-1}, ... */
    static final String FILE_PREFIX = "storefile-";

    private TableLoader() {}

    /**
     * Loads {@code spec} into {@code dataDirectory/<table name>} and returns its manifest.
     *
     * @param blockSize  target data block size in bytes
     * @param files      number of store files
     * @param progress   receives a line every 10% (may be a no-op)
     * @throws FileAlreadyExistsException when the table directory already exists
     */
    public static TableManifest load(
            Path dataDirectory, TableSpec spec, int blockSize, int files, Consumer<String> progress)
            throws IOException {
        if (blockSize < 1024 || blockSize > 16 << 20) {
            throw new IllegalArgumentException("block size must be 1k..16m, got " + blockSize);
        }
        if (files < 1 || files > 64) {
            throw new IllegalArgumentException("files must be 1..64, got " + files);
        }
        Path tableDirectory = dataDirectory.resolve(spec.name());
        if (Files.exists(tableDirectory)) {
            throw new FileAlreadyExistsException(
                    tableDirectory.toString(),
                    null,
                    "table '" + spec.name()
                            + "' already exists; delete the directory or load under another --table name");
        }
        Files.createDirectories(tableDirectory);
        List<String> names = new ArrayList<>();
        StoreFileWriter[] writers = new StoreFileWriter[files];
        try {
            for (int f = 0; f < files; f++) {
                names.add(FILE_PREFIX + f);
                writers[f] = StoreFileWriter.builder(tableDirectory.resolve(FILE_PREFIX + f))
                        .dataBlockSize(blockSize)
                        .open();
            }
            writeRows(spec, writers, progress);
            for (StoreFileWriter writer : writers) {
                writer.finish();
            }
        } finally {
            for (StoreFileWriter writer : writers) {
                if (writer != null) {
                    writer.close();
                }
            }
        }
        TableManifest manifest = new TableManifest(spec, blockSize, names);
        manifest.write(tableDirectory);
        return manifest;
    }

    private static void writeRows(TableSpec spec, StoreFileWriter[] writers, Consumer<String> progress)
            throws IOException {
        byte[] family = TableSpec.family();
        byte[][] qualifiers = new byte[spec.qualifiers()][];
        for (int q = 0; q < qualifiers.length; q++) {
            qualifiers[q] = TableSpec.qualifier(q);
        }
        long tenth = Math.max(1, spec.rows() / 10);
        for (long row = 0; row < spec.rows(); row++) {
            byte[] key = TableSpec.rowKey(row);
            StoreFileWriter writer = writers[(int) (row % writers.length)];
            for (int q = 0; q < qualifiers.length; q++) {
                writer.append(ArrayCell.of(key, family, qualifiers[q], spec.timestamp(), spec.value(row, q)));
            }
            if ((row + 1) % tenth == 0) {
                progress.accept(String.format("loaded %,d of %,d rows", row + 1, spec.rows()));
            }
        }
    }
}
