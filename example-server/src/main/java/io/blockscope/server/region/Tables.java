package io.blockscope.server.region;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The tables a server serves, all reading through one block cache and one reference ledger
 * ({@link CachedBlockSource}).
 */
public final class Tables implements AutoCloseable {

    private final Map<String, Region> regions;
    private final CachedBlockSource source;

    private Tables(Map<String, Region> regions, CachedBlockSource source) {
        this.regions = Collections.unmodifiableMap(regions);
        this.source = source;
    }

    /**
     * Opens the tables under {@code dataDirectory}: the directory itself when it holds a table
     * manifest, else each of its subdirectories that does.
     *
     * @throws IOException when there is no table, or one cannot be opened (the message says which and why)
     */
    public static Tables open(Path dataDirectory, BlockCache cache) throws IOException {
        List<Path> tableDirectories = tableDirectories(dataDirectory);
        CachedBlockSource source = new CachedBlockSource(cache);
        Map<String, Region> regions = new TreeMap<>();
        try {
            for (Path dir : tableDirectories) {
                Region region = Region.open(dir, source);
                Region clash = regions.put(region.name(), region);
                if (clash != null) {
                    throw new IOException(
                            "two tables named '" + region.name() + "': " + clash.directory() + " and " + dir);
                }
            }
        } catch (IOException | RuntimeException e) {
            regions.values().forEach(Region::close);
            throw e;
        }
        return new Tables(regions, source);
    }

    /** The data blocks and bytes of the tables under {@code dataDirectory}, for sizing a cache before opening them. */
    public static CacheSizing.Footprint footprint(Path dataDirectory) throws IOException {
        long blocks = 0;
        long bytes = 0;
        for (Path dir : tableDirectories(dataDirectory)) {
            for (String name : TableManifest.read(dir).storeFiles()) {
                try (StoreFileReader reader = StoreFileReader.open(dir.resolve(name))) {
                    blocks += reader.info().dataBlockCount();
                    bytes += reader.info().dataSectionBytes();
                }
            }
        }
        return new CacheSizing.Footprint(blocks, bytes);
    }

    private static List<Path> tableDirectories(Path dataDirectory) throws IOException {
        if (!Files.isDirectory(dataDirectory)) {
            throw new IOException(
                    "data directory " + dataDirectory + " does not exist; create a table with the load command");
        }
        List<Path> tableDirectories = new ArrayList<>();
        if (Files.exists(dataDirectory.resolve(TableManifest.FILE_NAME))) {
            tableDirectories.add(dataDirectory);
        } else {
            try (Stream<Path> children = Files.list(dataDirectory)) {
                children.filter(p -> Files.exists(p.resolve(TableManifest.FILE_NAME)))
                        .sorted()
                        .forEach(tableDirectories::add);
            }
        }
        if (tableDirectories.isEmpty()) {
            throw new IOException("no table in " + dataDirectory + " (no " + TableManifest.FILE_NAME
                    + " in it or its subdirectories); create one with: load --data " + dataDirectory + " --rows N");
        }
        return tableDirectories;
    }

    /** The table named {@code name}, or null. */
    public Region region(String name) {
        return regions.get(name);
    }

    /** The table named {@code name}, or the only table when {@code name} is null. */
    public Region require(String name) {
        if (name == null && regions.size() == 1) {
            return regions.values().iterator().next();
        }
        Region region = name == null ? null : regions.get(name);
        if (region == null) {
            throw new IllegalArgumentException((name == null ? "several tables are served" : "no table '" + name + "'")
                    + "; pick one of " + regions.keySet() + " with --table");
        }
        return region;
    }

    public Collection<Region> regions() {
        return regions.values();
    }

    /** Blocks handed out by the cache and not yet given back: 0 whenever no request is in flight. */
    /** The block source's data lookups and store file reads (see {@link CachedBlockSource#dataFileReads()}). */
    public CachedBlockSource blockSource() {
        return source;
    }

    public long outstandingBlockReferences() {
        return source.outstanding();
    }

    @Override
    public void close() {
        regions.values().forEach(Region::close);
    }
}
