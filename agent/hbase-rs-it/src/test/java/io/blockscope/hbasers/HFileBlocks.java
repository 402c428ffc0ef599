package io.blockscope.hbasers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;

/**
 * The blocks of every HFile a table's family has had, read back with HBase's own reader: the files it
 * has now and those a compaction moved to the archive. Counting what HBase wrote, rather than
 * predicting it from the data, gives a leak test the exact number of blocks a flush built.
 */
final class HFileBlocks {

    private final List<Path> files;

    private HFileBlocks(List<Path> files) {
        this.files = files;
    }

    /** The family's files under {@code rootDir} ({@code hbase.rootdir} of a standalone server). */
    static HFileBlocks of(Path rootDir, TableName table, String family) {
        Path live =
                rootDir.resolve("data").resolve(table.getNamespaceAsString()).resolve(table.getQualifierAsString());
        Path archived = rootDir.resolve("archive").resolve(rootDir.relativize(live));
        return new HFileBlocks(Stream.of(live, archived)
                .flatMap(dir -> familyFiles(dir, family))
                .sorted()
                .collect(Collectors.toList()));
    }

    int files() {
        return files.size();
    }

    /** Blocks of {@code type} in all the files, from the first data block to the root index. */
    int count(BlockType type) {
        Configuration conf = new Configuration();
        int count = 0;
        try {
            FileSystem fs = FileSystem.getLocal(conf);
            for (Path file : files) {
                try (HFile.Reader reader = HFile.createReader(fs, new org.apache.hadoop.fs.Path(file.toUri()), conf)) {
                    // the root index starts the load-on-open section; every other index block is before it
                    HFileBlock.BlockIterator blocks = reader.getUncachedBlockReader()
                            .blockRange(0, reader.getTrailer().getLoadOnOpenDataOffset());
                    try {
                        for (HFileBlock block = blocks.nextBlock(); block != null; block = blocks.nextBlock()) {
                            if (block.getBlockType() == type) {
                                count++;
                            }
                        }
                    } finally {
                        blocks.freeBlocks();
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return count;
    }

    /** {@code <table dir>/<region>/<family>/<hfile>}; none when the directory does not exist. */
    private static Stream<Path> familyFiles(Path tableDir, String family) {
        if (!Files.isDirectory(tableDir)) {
            return Stream.empty();
        }
        try (Stream<Path> all = Files.walk(tableDir, 3)) {
            return all
                    .filter(Files::isRegularFile)
                    .filter(f -> tableDir.relativize(f).getNameCount() == 3)
                    .filter(f -> f.getParent().getFileName().toString().equals(family))
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .collect(Collectors.toList())
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
