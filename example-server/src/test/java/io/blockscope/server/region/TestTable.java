package io.blockscope.server.region;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCaches;
import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.cache.CacheDeploy;
import io.blockscope.server.cache.ReadPathMode;
import io.blockscope.server.load.TableLoader;
import io.blockscope.server.load.TableManifest;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.load.ValueDistribution;
import io.blockscope.server.rpc.CellBlock;
import io.blockscope.server.rpc.ClientCell;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helper: a small generated table on disk, the cells it must hold, and caches to read it with. */
public final class TestTable {

    public static final String NAME = "t";

    private TestTable() {}

    /** 2,000 rows x 3 qualifiers of random sizes up to 200 bytes, 4 KB blocks, 3 store files. */
    public static TableSpec smallSpec() {
        return new TableSpec(NAME, 2_000, 3, 200, ValueDistribution.RANDOM, 7, 1_700_000_000_000L);
    }

    public static TableManifest load(Path dataDirectory, TableSpec spec) throws IOException {
        return TableLoader.load(dataDirectory, spec, 4096, 3, line -> {});
    }

    /** A cache of the given deploy and mode, small enough for tests. */
    public static BlockCache cache(CacheDeploy deploy, ReadPathMode mode) {
        return BlockCaches.create(CacheConfig.builder()
                .deploy(deploy)
                .readPathMode(mode)
                .l1Size(8 << 20)
                .l2Size(32 << 20)
                .build());
    }

    /** The cells of row {@code row} as the loader wrote them. */
    public static List<ClientCell> expectedRow(TableSpec spec, long row) {
        List<ClientCell> cells = new ArrayList<>();
        for (int q = 0; q < spec.qualifiers(); q++) {
            cells.add(new ClientCell(
                    TableSpec.rowKey(row),
                    TableSpec.family(),
                    TableSpec.qualifier(q),
                    spec.timestamp(),
                    spec.value(row, q)));
        }
        return cells;
    }

    public static List<ClientCell> expectedRows(TableSpec spec, long fromRow, long toRow) {
        List<ClientCell> cells = new ArrayList<>();
        for (long r = fromRow; r < toRow; r++) {
            cells.addAll(expectedRow(spec, r));
        }
        return cells;
    }

    /** The result's cells, through the RPC cell block encoding and back (so the codec is checked too). */
    public static List<ClientCell> cells(ReadResult result) {
        int length = CellBlock.HEADER_LENGTH;
        for (int i = 0; i < result.cellCount(); i++) {
            length += CellBlock.encodedLength(result.cell(i));
        }
        ByteBuffer block = ByteBuffer.allocate(length);
        CellBlock.writeHeader(block, result.cellCount());
        for (int i = 0; i < result.cellCount(); i++) {
            CellBlock.encode(result.cell(i), block);
        }
        return CellBlock.decode(block.flip());
    }
}
