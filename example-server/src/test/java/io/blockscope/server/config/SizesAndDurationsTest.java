package io.blockscope.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SizesAndDurationsTest {

    @Test
    void sizesUseBinaryUnits() {
        assertEquals(65536, ByteSize.parse("65536"));
        assertEquals(65536, ByteSize.parse("64k"));
        assertEquals(64L << 20, ByteSize.parse("64M"));
        assertEquals(1L << 30, ByteSize.parse("1gb"));
        assertEquals("64k", ByteSize.format(65536));
        assertEquals("1g", ByteSize.format(1L << 30));
        assertEquals("1000", ByteSize.format(1000));
        for (String bad : new String[] {"", "k", "-1", "1.5g", "lots", "99999999999999g"}) {
            assertTrue(
                    assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(bad))
                            .getMessage()
                            .contains("e.g. 64m"),
                    bad);
        }
    }

    @Test
    void durationsTakeTheUsualSuffixes() {
        assertEquals(Duration.ofSeconds(20), Durations.parse("20s"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofNanos(1), Durations.parse("1ns"));
        assertEquals(Duration.ofNanos(3000), Durations.parse("3us"));
        assertEquals("20s", Durations.format(Duration.ofSeconds(20)));
        assertEquals("500ms", Durations.format(Duration.ofMillis(500)));
        for (String bad : new String[] {"20", "s", "-1s", "1x", "NaNs"}) {
            assertTrue(
                    assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad))
                            .getMessage()
                            .contains("e.g. 20s"),
                    bad);
        }
    }
}
