package io.blockscope.hbasers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * One table of a feature run: created with the family {@link Workload#FAMILY} as {@code family}
 * configures it, loaded with {@code rows} rows of {@code versions} versions of one cell
 * ({@link Workload#QUALIFIER}, {@code value(row)}; each Put as {@code put} dresses it, with a cell
 * ACL or a visibility expression), flushed to an HFile and read twice so that its blocks are in the
 * offheap BucketCache.
 */
final class FeatureTable implements AutoCloseable {

    final Table table;
    final int rows;

    private FeatureTable(Table table, int rows) {
        this.table = table;
        this.rows = rows;
    }

    static FeatureTable create(
            Connection connection,
            String name,
            int rows,
            int versions,
            IntFunction<byte[]> value,
            UnaryOperator<ColumnFamilyDescriptorBuilder> family) {
        return create(connection, name, rows, versions, value, family, t -> t, p -> p);
    }

    /** The same, with the table configured by {@code table} too (a coprocessor, say). */
    static FeatureTable create(
            Connection connection,
            String name,
            int rows,
            int versions,
            IntFunction<byte[]> value,
            UnaryOperator<ColumnFamilyDescriptorBuilder> family,
            UnaryOperator<TableDescriptorBuilder> table,
            UnaryOperator<Put> put) {
        try {
            TableName tableName = TableName.valueOf(name);
            try (Admin admin = connection.getAdmin()) {
                admin.createTable(table.apply(TableDescriptorBuilder.newBuilder(tableName))
                        .setColumnFamily(family.apply(ColumnFamilyDescriptorBuilder.newBuilder(Workload.FAMILY)
                                        .setMaxVersions(versions))
                                .build())
                        .build());
                Table created = connection.getTable(tableName);
                for (int v = 0; v < versions; v++) {
                    List<Put> puts = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        puts.add(put.apply(new Put(Workload.row(i))
                                .addColumn(Workload.FAMILY, Workload.QUALIFIER, value.apply(i))));
                    }
                    created.put(puts);
                }
                admin.flush(tableName);
                FeatureTable loaded = new FeatureTable(created, rows);
                // the first read caches the blocks, the second finds them in the BucketCache
                loaded.scanCells(new Scan());
                loaded.scanCells(new Scan());
                return loaded;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The same table read through {@code other} (another user's connection); closed on its own. */
    FeatureTable readBy(Connection other) throws IOException {
        return new FeatureTable(other.getTable(table.getName()), rows);
    }

    /** The cells {@code scan} returns. */
    int scanCells(Scan scan) throws IOException {
        int cells = 0;
        try (ResultScanner scanner = table.getScanner(scan.setCaching(500))) {
            for (Result result : scanner) {
                cells += result.size();
            }
        }
        return cells;
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
