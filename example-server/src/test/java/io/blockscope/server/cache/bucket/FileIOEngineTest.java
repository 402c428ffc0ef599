package io.blockscope.server.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.buffer.ByteBuff;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileIOEngineTest {

    @TempDir
    Path dir;

    private static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void roundTripsBlocksAtAnyOffset() throws Exception {
        Path file = dir.resolve("l2.cache");
        try (FileIOEngine engine = FileIOEngine.open(file, 10L << 20, false)) {
            assertEquals(10L << 20, Files.size(file));
            assertFalse(engine.supportsSharedViews());
            assertTrue(engine.isOffHeap());
            assertEquals(IOEngineType.FILE, engine.type());
            long[] offsets = {0, 4_194_000, (10L << 20) - 70_000};
            for (int i = 0; i < offsets.length; i++) {
                byte[] block = random(65_536 + i, i);
                engine.write(offsets[i], ByteBuff.wrap(block), 0, block.length);
            }
            for (int i = 0; i < offsets.length; i++) {
                byte[] copy = new byte[65_536 + i + 8];
                engine.read(offsets[i], copy, 8, 65_536 + i);
                assertArrayEquals(random(65_536 + i, i), Arrays.copyOfRange(copy, 8, copy.length));
            }
        }
        assertTrue(Files.exists(file), "kept: deleteOnClose was false");
    }

    @Test
    void writesANonContiguousSource() {
        byte[] first = random(3000, 1);
        byte[] second = random(2000, 2);
        ByteBuff multi = ByteBuff.wrap(ByteBuffer.wrap(first), ByteBuffer.wrap(second));
        try (FileIOEngine engine = FileIOEngine.open(dir.resolve("c"), 1 << 20, true)) {
            engine.write(500, multi, 1000, 3000);
            byte[] copy = new byte[3000];
            engine.read(500, copy, 0, 3000);
            byte[] expected = new byte[3000];
            System.arraycopy(first, 1000, expected, 0, 2000);
            System.arraycopy(second, 0, expected, 2000, 1000);
            assertArrayEquals(expected, copy);
        }
    }

    @Test
    void closeDeletesTheFileWhenAsked() {
        Path file = dir.resolve("gone.cache");
        FileIOEngine engine = FileIOEngine.open(file, 1 << 20, true);
        assertTrue(Files.exists(file));
        engine.close();
        assertFalse(Files.exists(file));
        UncheckedIOException failure =
                assertThrows(UncheckedIOException.class, () -> engine.read(0, new byte[10], 0, 10));
        assertTrue(failure.getMessage().contains(file.toString()), failure.getMessage());
    }

    @Test
    void shrinksALargerExistingFile() throws Exception {
        Path file = dir.resolve("big");
        Files.write(file, new byte[3 << 20]);
        try (FileIOEngine engine = FileIOEngine.open(file, 1 << 20, false)) {
            assertEquals(1 << 20, Files.size(file));
            assertEquals(1 << 20, engine.capacity());
        }
    }

    @Test
    void anUnusablePathIsExplained() throws Exception {
        Path notADirectory = Files.createFile(dir.resolve("plain-file"));
        Path inside = notADirectory.resolve("cache"); // fails even for root
        IllegalArgumentException failure =
                assertThrows(IllegalArgumentException.class, () -> FileIOEngine.open(inside, 1 << 20, true));
        assertTrue(failure.getMessage().contains(inside.toString()), failure.getMessage());
        assertTrue(failure.getMessage().contains("writable"), failure.getMessage());

        IllegalArgumentException directory =
                assertThrows(IllegalArgumentException.class, () -> FileIOEngine.open(dir, 1 << 20, true));
        assertTrue(directory.getMessage().contains("is a directory"), directory.getMessage());
    }

    @Test
    void viewsAreNotSupported() {
        try (FileIOEngine engine = FileIOEngine.open(dir.resolve("v"), 1 << 20, true)) {
            assertThrows(UnsupportedOperationException.class, () -> engine.view(0, 10));
        }
    }

    @Test
    void anInterruptedReaderDoesNotBreakTheEngineForOthers() throws Exception {
        try (FileIOEngine engine = FileIOEngine.open(dir.resolve("i"), 1 << 20, true)) {
            byte[] block = random(4096, 9);
            engine.write(0, ByteBuff.wrap(block), 0, block.length);
            Thread.currentThread().interrupt();
            assertThrows(UncheckedIOException.class, () -> engine.read(0, new byte[4096], 0, 4096));
            assertTrue(Thread.interrupted(), "the interrupt status is left for the caller");
            byte[] copy = new byte[4096];
            engine.read(0, copy, 0, 4096);
            assertArrayEquals(block, copy);
        }
    }
}
