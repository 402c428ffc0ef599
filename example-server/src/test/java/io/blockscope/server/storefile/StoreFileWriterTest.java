package io.blockscope.server.storefile;

import static io.blockscope.server.storefile.TestStoreFiles.FAMILY;
import static io.blockscope.server.storefile.TestStoreFiles.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.Cells;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreFileWriterTest {

    @TempDir
    Path dir;

    private static ArrayCell cell(int row, String qualifier, long timestamp) {
        return ArrayCell.of(row(row), FAMILY, qualifier.getBytes(), timestamp, "v".getBytes());
    }

    @Test
    void unsortedAndDuplicateCellsAreRejectedAndTheWriterGoesOn() throws IOException {
        Path path = dir.resolve("sorted.sf");
        try (StoreFileWriter w = StoreFileWriter.builder(path).open()) {
            w.append(cell(1, "a", 5));
            w.append(cell(1, "a", 4));
            IllegalArgumentException older =
                    assertThrows(IllegalArgumentException.class, () -> w.append(cell(1, "a", 6)));
            assertTrue(
                    older.getMessage()
                            .contains("cell #3 row-00000001/f:a/6/vlen=1 sorts before the previous cell"
                                    + " row-00000001/f:a/4/vlen=1"),
                    older.getMessage());
            assertTrue(older.getMessage().contains("newest timestamp first"), older.getMessage());
            IllegalArgumentException duplicate =
                    assertThrows(IllegalArgumentException.class, () -> w.append(cell(1, "a", 4)));
            assertTrue(duplicate.getMessage().contains("repeats the key of"), duplicate.getMessage());
            assertThrows(IllegalArgumentException.class, () -> w.append(cell(0, "z", 1)), "an earlier row");
            w.append(cell(1, "b", 1));
            w.append(cell(2, "a", 1));
            assertEquals(4, w.finish().cellCount());
        }
        try (StoreFileReader r = StoreFileReader.open(path);
                StoreFileScanner s = new StoreFileScanner(r, r.uncachedBlocks())) {
            for (ArrayCell expected :
                    new ArrayCell[] {cell(1, "a", 5), cell(1, "a", 4), cell(1, "b", 1), cell(2, "a", 1)}) {
                assertTrue(Cells.equals(expected, s.next()));
            }
            assertEquals(null, s.next());
            assertEquals(2, r.info().rowCount());
        }
    }

    @Test
    void closingWithoutFinishLeavesNoFile() throws IOException {
        Path path = dir.resolve("abandoned.sf");
        try (StoreFileWriter w = StoreFileWriter.builder(path).dataBlockSize(64).open()) {
            for (int i = 0; i < 100; i++) {
                w.append(cell(i, "q", 1));
            }
        }
        assertFalse(Files.exists(path));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "no temporary file left behind");
        }
    }

    @Test
    void theFileAppearsOnlyWhenFinished() throws IOException {
        Path path = dir.resolve("atomic.sf");
        try (StoreFileWriter w = StoreFileWriter.builder(path).open()) {
            w.append(cell(1, "q", 1));
            assertFalse(Files.exists(path), "readers never see a half-written file");
            w.finish();
            assertTrue(Files.exists(path));
            assertThrows(IllegalStateException.class, () -> w.append(cell(2, "q", 1)));
        }
        assertTrue(Files.exists(path), "close after finish keeps the file");
    }

    @Test
    void refusesToOverwriteAStoreFile() throws IOException {
        Path path = dir.resolve("exists.sf");
        Files.writeString(path, "x");
        FileAlreadyExistsException e = assertThrows(
                FileAlreadyExistsException.class,
                () -> StoreFileWriter.builder(path).open());
        assertTrue(e.getMessage().contains("immutable"), e.getMessage());
    }

    @Test
    void badOptionsAreRejectedWithTheRange() {
        StoreFileWriter.Builder b = StoreFileWriter.builder(dir.resolve("x.sf"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.dataBlockSize(10));
        assertTrue(
                e.getMessage().contains("data block size must be between 64 bytes and 64 MB, got 10"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.indexBlockSize(0));
        assertThrows(IllegalArgumentException.class, () -> b.bloomChunkSize(-1));
        assertThrows(IllegalArgumentException.class, () -> b.bloomFalsePositiveRate(0));
        assertThrows(IllegalArgumentException.class, () -> b.bloomFalsePositiveRate(0.9));
    }
}
