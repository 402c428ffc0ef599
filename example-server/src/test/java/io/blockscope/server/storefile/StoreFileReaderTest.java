package io.blockscope.server.storefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.cache.Block;
import io.blockscope.server.cache.BlockCacheKey;
import io.blockscope.server.cache.BlockType;
import io.blockscope.server.cell.ArrayCell;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreFileReaderTest {

    private static final List<ArrayCell> CELLS = TestStoreFiles.cells(200, 0, 4);

    @TempDir
    Path dir;

    private StoreFileReader open() throws IOException {
        Path path = dir.resolve("r.sf");
        TestStoreFiles.write(path, CELLS, TestStoreFiles.small(path));
        return StoreFileReader.open(path);
    }

    @Test
    void anInterruptedReaderDoesNotBreakTheFileForOtherThreads() throws IOException {
        try (StoreFileReader reader = open()) {
            Thread.currentThread().interrupt();
            try {
                assertThrows(ClosedByInterruptException.class, () -> reader.readBlock(0, BlockType.DATA));
            } finally {
                Thread.interrupted();
            }
            Block block = reader.readBlock(0, BlockType.DATA);
            assertTrue(block.length() >= 4096, "the channel was reopened");
        }
    }

    @Test
    void aClosedReaderStaysClosed() throws IOException {
        StoreFileReader reader = open();
        reader.close();
        assertThrows(ClosedChannelException.class, () -> reader.readBlock(0, BlockType.DATA));
    }

    @Test
    void theUncachedSourceReadsOnlyItsOwnFile() throws IOException {
        try (StoreFileReader reader = open()) {
            BlockSource source = reader.uncachedBlocks();
            Block block = source.getBlock(reader.keyFor(0), BlockType.DATA);
            assertEquals(Block.MemoryType.EXCLUSIVE, block.memoryType());
            assertEquals(BlockType.DATA, block.type());
            assertTrue(!block.data().isDirect());
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> source.getBlock(new BlockCacheKey("/elsewhere.sf", 0), BlockType.DATA));
            assertTrue(e.getMessage().contains("names another file"), e.getMessage());
            assertEquals(
                    reader.path().toAbsolutePath().normalize().toString(),
                    reader.keyFor(0).fileName());
        }
    }

    @Test
    void blocksOfTheWrongTypeFromASourceAreCorruption() throws IOException {
        try (StoreFileReader reader = open()) {
            BlockSource lying = new BlockSource() {
                @Override
                public Block getBlock(BlockCacheKey key, BlockType expectedType) throws IOException {
                    return reader.readBlock(0, BlockType.DATA);
                }

                @Override
                public void returnBlock(BlockCacheKey key, Block block) {}
            };
            CorruptStoreFileException e = assertThrows(
                    CorruptStoreFileException.class, () -> reader.mightContainRow(TestStoreFiles.row(0), lying));
            assertTrue(
                    e.getMessage().contains("expected a BLOOM block, the block source returned a DATA block"),
                    e.getMessage());
        }
    }
}
