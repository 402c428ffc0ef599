package io.blockscope.server.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableSpecTest {

    @Test
    void rowKeysArePaddedNumbersInKeyOrder() {
        assertEquals("00000000000000000000000042", new String(TableSpec.rowKey(42), StandardCharsets.US_ASCII));
        assertEquals(42, TableSpec.rowNumber(TableSpec.rowKey(42)));
        assertEquals(-1, TableSpec.rowNumber("42".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(Arrays.compareUnsigned(TableSpec.rowKey(999), TableSpec.rowKey(1000)) < 0);
    }

    @Test
    void valuesAreAPureFunctionOfSeedRowAndQualifier() {
        TableSpec a = new TableSpec("t", 100, 3, 1000, ValueDistribution.FIXED, 1, 0);
        TableSpec b = new TableSpec("t", 100, 3, 1000, ValueDistribution.FIXED, 1, 0);
        TableSpec otherSeed = new TableSpec("t", 100, 3, 1000, ValueDistribution.FIXED, 2, 0);
        assertArrayEquals(a.value(7, 2), b.value(7, 2));
        assertFalse(Arrays.equals(a.value(7, 2), a.value(7, 1)));
        assertFalse(Arrays.equals(a.value(7, 2), otherSeed.value(7, 2)));
        byte[] prefix = new byte[10];
        a.fillValue(7, 2, prefix, 0, 10);
        assertArrayEquals(Arrays.copyOf(a.value(7, 2), 10), prefix);
    }

    @Test
    void firstValueBytesAreUniformEnoughForTheTenPercentFilter() {
        TableSpec spec = new TableSpec("t", 20_000, 1, 16, ValueDistribution.FIXED, 5, 0);
        int below = 0;
        for (long row = 0; row < spec.rows(); row++) {
            if (Byte.toUnsignedInt(spec.value(row, 0)[0]) < 26) {
                below++;
            }
        }
        assertTrue(below > 1800 && below < 2300, "expected ~10.2% of 20000, got " + below);
    }

    @Test
    void sizeDistributionsStayInRangeAndHaveTheirShape() {
        TableSpec random = new TableSpec("t", 1, 1, 1000, ValueDistribution.RANDOM, 3, 0);
        TableSpec zipf = new TableSpec("t", 1, 1, 1000, ValueDistribution.ZIPF, 3, 0);
        long randomSum = 0;
        int zipfSmall = 0;
        for (long row = 0; row < 10_000; row++) {
            int r = random.valueLength(row, 0);
            int z = zipf.valueLength(row, 0);
            assertTrue(r >= 0 && r <= 1000);
            assertTrue(z >= 1 && z <= 1000);
            randomSum += r;
            if (z <= 10) {
                zipfSmall++;
            }
        }
        assertEquals(500, randomSum / 10_000.0, 25);
        assertTrue(zipfSmall > 5_000, "zipfian sizes are mostly small: " + zipfSmall);
    }

    @Test
    void badSpecsAreRejected() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new TableSpec("bad name", 1, 1, 1, ValueDistribution.FIXED, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("t", 0, 1, 1, ValueDistribution.FIXED, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("t", 1, 11, 1, ValueDistribution.FIXED, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TableSpec("t", 1, 1, 0, ValueDistribution.FIXED, 0, 0));
    }

    @Test
    void theManifestRoundTripsAndNamesWhatIsMissing(@TempDir Path dir) throws Exception {
        TableSpec spec = new TableSpec("m", 10, 2, 100, ValueDistribution.ZIPF, 9, 77);
        new TableManifest(spec, 4096, List.of("a", "b")).write(dir);
        TableManifest back = TableManifest.read(dir);
        assertEquals(List.of("a", "b"), back.storeFiles());
        assertEquals(4096, back.blockSize());
        assertEquals(ValueDistribution.ZIPF, back.spec().distribution());
        assertEquals(77, back.spec().timestamp());
        assertTrue(assertThrows(java.io.IOException.class, () -> TableManifest.read(dir.resolve("nope")))
                .getMessage()
                .contains("is not a loaded table"));
        java.nio.file.Files.writeString(dir.resolve(TableManifest.FILE_NAME), "name=m\n");
        assertTrue(assertThrows(java.io.IOException.class, () -> TableManifest.read(dir))
                .getMessage()
                .contains("missing key 'rows'"));
    }
}
