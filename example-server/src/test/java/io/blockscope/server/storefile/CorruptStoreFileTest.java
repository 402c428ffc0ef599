package io.blockscope.server.storefile;

import static io.blockscope.server.storefile.TestStoreFiles.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import io.blockscope.server.cell.Cell;
import io.blockscope.server.cell.Cells;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files fail with an error that names the file, the offset and the cause, and never hand
 * out a wrong cell.
 */
class CorruptStoreFileTest {

    private static final List<ArrayCell> CELLS = TestStoreFiles.cells(400, 0, 21);

    @TempDir
    Path dir;

    Path path;
    String name;
    Trailer trailer;

    @BeforeEach
    void writeGoodFile() throws IOException {
        path = dir.resolve("victim.sf");
        TestStoreFiles.write(path, CELLS, TestStoreFiles.small(path));
        name = path.toAbsolutePath().normalize().toString();
        byte[] bytes = Files.readAllBytes(path);
        trailer = Trailer.decode(
                Arrays.copyOfRange(bytes, bytes.length - StoreFileFormat.TRAILER_SIZE, bytes.length),
                name,
                bytes.length - StoreFileFormat.TRAILER_SIZE);
    }

    @Test
    void flippedByteInADataBlockFailsTheChecksumAndNoCellOfThatBlockIsReturned() throws IOException {
        long second = secondDataBlock();
        flip(second + StoreFileFormat.BLOCK_HEADER_SIZE + 100);
        try (StoreFileReader reader = StoreFileReader.open(path);
                StoreFileScanner scanner = new StoreFileScanner(reader, reader.uncachedBlocks())) {
            int n = 0;
            CorruptStoreFileException e = null;
            try {
                for (Cell c = scanner.next(); c != null; c = scanner.next()) {
                    assertTrue(Cells.equals(CELLS.get(n), c), "cell " + n + " before the damage is intact");
                    n++;
                }
            } catch (CorruptStoreFileException thrown) {
                e = thrown;
            }
            assertCorrupt(e, second, "checksum mismatch", "expected 0x", "actual 0x");
            assertEquals(cellsInFirstBlock(reader), n, "stops exactly at the damaged block");
        }
    }

    @Test
    void flippedByteInALeafIndexBlock() throws IOException {
        long leaf = trailer.dataSectionEnd();
        flip(leaf + StoreFileFormat.BLOCK_HEADER_SIZE + 6);
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            assertCorrupt(() -> reader.dataBlockOffsetFor(row(0), reader.uncachedBlocks()), leaf, "checksum mismatch");
            assertCorrupt(
                    () -> new StoreFileScanner(reader, reader.uncachedBlocks()).seek(row(0)),
                    leaf,
                    "checksum mismatch");
        }
    }

    @Test
    void flippedByteInABloomChunk() throws IOException {
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            reader.mightContainRow(row(0), reader.uncachedBlocks());
        }
        long chunk = firstBlockAfter(trailer.dataSectionEnd(), BlockType.BLOOM);
        flip(chunk + StoreFileFormat.BLOCK_HEADER_SIZE + 12);
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            assertCorrupt(() -> reader.mightContainRow(row(0), reader.uncachedBlocks()), chunk, "checksum mismatch");
        }
    }

    @Test
    void flippedPayloadLengthIsCaught() throws IOException {
        long second = secondDataBlock();
        flip(second + 3);
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            CorruptStoreFileException e =
                    assertThrows(CorruptStoreFileException.class, () -> reader.readBlock(second, BlockType.DATA));
            assertEquals(second, e.offset());
            assertTrue(
                    e.problem().contains("checksum mismatch") || e.problem().contains("runs past the end"),
                    e.getMessage());
        }
    }

    @Test
    void wrongBlockMagic() throws IOException {
        long second = secondDataBlock();
        write(second, new byte[] {'X'});
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            assertCorrupt(() -> reader.readBlock(second, BlockType.DATA), second, "bad block magic 0x58");
        }
        write(second, new byte[] {BlockType.INDEX.code()});
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            assertCorrupt(
                    () -> reader.readBlock(second, BlockType.DATA),
                    second,
                    "expected a DATA block, found a INDEX block");
        }
    }

    @Test
    void wrongTrailerMagic() throws IOException {
        long at = trailerOffset();
        write(at, "NOTASTOR".getBytes());
        assertOpenFails(at, "bad trailer magic", "not a blockscope store file");
    }

    @Test
    void truncatedFile() throws IOException {
        long size = Files.size(path);
        truncate(size / 2);
        assertOpenFails(size / 2 - StoreFileFormat.TRAILER_SIZE, "bad trailer magic", "truncated");
        truncate(10);
        assertOpenFails(0, "smaller than the 72-byte trailer");
    }

    @Test
    void fileTruncatedWhileOpen() throws IOException {
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            long second = secondDataBlock();
            truncate(second + 100);
            CorruptStoreFileException e =
                    assertCorrupt(() -> reader.readBlock(second, BlockType.DATA), second, "truncated at ");
            assertTrue(e.problem().matches(".*truncated at \\d+ of \\d+ bytes.*"), e.getMessage());
        }
    }

    @Test
    void garbageTrailer() throws IOException {
        long at = trailerOffset();
        byte[] garbage = new byte[StoreFileFormat.TRAILER_SIZE];
        new java.util.Random(1).nextBytes(garbage);
        write(at, garbage);
        assertOpenFails(at, "bad trailer magic");

        // Magic and version intact, the rest garbage: the trailer's own checksum catches it.
        System.arraycopy(StoreFileFormat.TRAILER_MAGIC, 0, garbage, 0, 8);
        ByteBuffer.wrap(garbage).putInt(8, StoreFileFormat.VERSION);
        write(at, garbage);
        assertOpenFails(at, "trailer checksum mismatch");
    }

    @Test
    void badTrailerVersion() throws IOException {
        long at = trailerOffset();
        write(at + 8, ByteBuffer.allocate(4).putInt(7).array());
        assertOpenFails(at, "bad trailer version 7");
    }

    @Test
    void trailerPointingPastTheEnd() throws IOException {
        long at = trailerOffset();
        Trailer bad = new Trailer(
                trailer.dataBlockCount(),
                trailer.leafIndexBlockCount(),
                trailer.bloomChunkCount(),
                trailer.dataSectionEnd(),
                trailer.rootIndexOffset(),
                at + 1000,
                trailer.cellCount(),
                trailer.rowCount());
        write(at, bad.encode());
        assertOpenFails(at, "trailer points past end");
    }

    @Test
    void leafIndexEntryPointingPastTheDataSection() throws IOException {
        long leaf = trailer.dataSectionEnd();
        rewritePayload(leaf, payload -> {
            int firstEntry = payload.getInt(4);
            payload.putLong(firstEntry, trailer.dataSectionEnd() + 50);
        });
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            assertCorrupt(
                    () -> reader.dataBlockOffsetFor(row(0), reader.uncachedBlocks()), leaf, "index points past end");
        }
    }

    @Test
    void rootIndexEntryPointingOutsideTheLeafSection() throws IOException {
        long root = trailer.rootIndexOffset();
        rewritePayload(root, payload -> payload.putLong(payload.getInt(4), 0));
        assertOpenFails(root, "index points past end");
    }

    @Test
    void malformedCellInsideAWellChecksummedBlock() throws IOException {
        long second = secondDataBlock();
        rewritePayload(second, payload -> payload.putInt(0, 3));
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            CorruptStoreFileException e = assertCorrupt(
                    () -> {
                        try (StoreFileScanner s = new StoreFileScanner(reader, reader.uncachedBlocks())) {
                            while (s.next() != null) {
                                // read until the damage
                            }
                        }
                    },
                    second,
                    "malformed cell at payload index 0");
            assertTrue(e.problem().contains("key length 3"), e.getMessage());
        }
    }

    // --- helpers -----------------------------------------------------------------------------

    private long trailerOffset() throws IOException {
        return Files.size(path) - StoreFileFormat.TRAILER_SIZE;
    }

    private long secondDataBlock() throws IOException {
        try (StoreFileReader reader = StoreFileReader.open(path)) {
            return reader.nextDataBlockOffset(0, reader.readBlock(0, BlockType.DATA));
        }
    }

    private int cellsInFirstBlock(StoreFileReader reader) throws IOException {
        DataBlockScanner s = new DataBlockScanner(reader.readBlock(0, BlockType.DATA), reader.keyFor(0));
        int n = 0;
        while (s.hasNext()) {
            s.next();
            n++;
        }
        return n;
    }

    /** Offset of the first block of {@code type} at or after {@code from}, walking block headers. */
    private long firstBlockAfter(long from, BlockType type) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        long at = from;
        while (bytes[(int) at] != type.code()) {
            at += StoreFileFormat.BLOCK_HEADER_SIZE + ByteBuffer.wrap(bytes).getInt((int) at + 1);
        }
        return at;
    }

    private void flip(long offset) throws IOException {
        byte[] one = new byte[1];
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.read(ByteBuffer.wrap(one), offset);
            one[0] ^= 0x10;
            ch.write(ByteBuffer.wrap(one), offset);
        }
    }

    private void write(long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private void truncate(long size) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    /** Edits a block's payload and recomputes its checksum: damage only the format checks can see. */
    private void rewritePayload(long offset, Consumer<ByteBuffer> edit) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        int at = (int) offset;
        int length = ByteBuffer.wrap(bytes).getInt(at + 1);
        ByteBuffer payload = ByteBuffer.wrap(bytes, at + StoreFileFormat.BLOCK_HEADER_SIZE, length)
                .slice();
        edit.accept(payload);
        CRC32C crc = new CRC32C();
        crc.update(bytes, at, StoreFileFormat.BLOCK_HEADER_CHECKED);
        crc.update(bytes, at + StoreFileFormat.BLOCK_HEADER_SIZE, length);
        ByteBuffer.wrap(bytes).putInt(at + StoreFileFormat.BLOCK_HEADER_CHECKED, (int) crc.getValue());
        Files.write(path, bytes);
    }

    private void assertOpenFails(long offset, String... causes) {
        assertCorrupt(() -> StoreFileReader.open(path).close(), offset, causes);
    }

    private CorruptStoreFileException assertCorrupt(Executable action, long offset, String... causes) {
        return assertCorrupt(assertThrows(CorruptStoreFileException.class, action), offset, causes);
    }

    private CorruptStoreFileException assertCorrupt(CorruptStoreFileException e, long offset, String... causes) {
        if (e == null) {
            throw new AssertionError("expected a CorruptStoreFileException at offset " + offset);
        }
        String message = e.getMessage();
        assertTrue(message.contains(name), "names the file: " + message);
        assertTrue(message.contains("at offset " + offset + ":"), "names offset " + offset + ": " + message);
        assertEquals(offset, e.offset());
        assertEquals(name, e.file());
        for (String cause : causes) {
            assertTrue(message.contains(cause), "says '" + cause + "': " + message);
        }
        return e;
    }
}
