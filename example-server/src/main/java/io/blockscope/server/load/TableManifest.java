package io.blockscope.server.load;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The {@value #FILE_NAME} file in a table's directory: the generating {@link TableSpec}, the block
 * size and the store files that make up the table. The server opens exactly the files it lists, so
 * a half-written load (no manifest yet) is never served.
 */
public final class TableManifest {

    public static final String FILE_NAME = "table.properties";

    private final TableSpec spec;
    private final int blockSize;
    private final List<String> storeFiles;

    public TableManifest(TableSpec spec, int blockSize, List<String> storeFiles) {
        this.spec = spec;
        this.blockSize = blockSize;
        this.storeFiles = List.copyOf(storeFiles);
    }

    public TableSpec spec() {
        return spec;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Store file names, relative to the table directory. */
    public List<String> storeFiles() {
        return storeFiles;
    }

    /** Writes the manifest last and atomically, so a reader sees a complete table or none. */
    public void write(Path tableDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("name", spec.name());
        p.setProperty("rows", Long.toString(spec.rows()));
        p.setProperty("qualifiers", Integer.toString(spec.qualifiers()));
        p.setProperty("value-size", Integer.toString(spec.valueSize()));
        p.setProperty("value-dist", spec.distribution().label());
        p.setProperty("seed", Long.toString(spec.seed()));
        p.setProperty("timestamp", Long.toString(spec.timestamp()));
        p.setProperty("block-size", Integer.toString(blockSize));
        p.setProperty("store-files", String.join(",", storeFiles));
        Path tmp = tableDir.resolve(FILE_NAME + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(out, "blockscope table");
        }
        Files.move(
                tmp,
                tableDir.resolve(FILE_NAME),
                java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads a table directory's manifest; the message of any failure names the file and the problem. */
    public static TableManifest read(Path tableDir) throws IOException {
        Path file = tableDir.resolve(FILE_NAME);
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new IOException(
                    file + " does not exist: " + tableDir + " is not a loaded table (run the load command)");
        }
        try {
            TableSpec spec = new TableSpec(
                    required(p, "name"),
                    Long.parseLong(required(p, "rows")),
                    Integer.parseInt(required(p, "qualifiers")),
                    Integer.parseInt(required(p, "value-size")),
                    ValueDistribution.parse(required(p, "value-dist")),
                    Long.parseLong(required(p, "seed")),
                    Long.parseLong(required(p, "timestamp")));
            int blockSize = Integer.parseInt(required(p, "block-size"));
            List<String> files =
                    new ArrayList<>(Arrays.asList(required(p, "store-files").split(",")));
            files.removeIf(String::isEmpty);
            if (files.isEmpty()) {
                throw new IllegalArgumentException("store-files lists no file");
            }
            return new TableManifest(spec, blockSize, files);
        } catch (IllegalArgumentException e) {
            throw new IOException("bad table manifest " + file + ": " + e.getMessage(), e);
        }
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("missing key '" + key + "'");
        }
        return value.trim();
    }
}
