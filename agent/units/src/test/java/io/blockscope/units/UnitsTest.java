package io.blockscope.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void sizesUseBinaryUnitsInEverySpelling() {
        assertEquals(65536, Units.bytes("65536"));
        assertEquals(100, Units.bytes("100b"));
        assertEquals(65536, Units.bytes("64k"));
        assertEquals(65536, Units.bytes("64KB"));
        assertEquals(256 << 10, Units.bytes("256KiB"));
        assertEquals(64L << 20, Units.bytes("64M"));
        assertEquals(1L << 20, Units.bytes("1MiB"));
        assertEquals(1L << 30, Units.bytes("1gb"));
        assertEquals(2L << 40, Units.bytes(" 2t "));
        assertEquals(0, Units.bytes("0"));
        assertEquals(Long.MAX_VALUE, Units.bytes(Long.toString(Long.MAX_VALUE)));
    }

    @Test
    void badSizesSayWhatIsWrongAndWhatIsAccepted() {
        assertError(() -> Units.bytes("-1"), "bad size '-1': it is negative; use bytes");
        assertError(() -> Units.bytes("1.5g"), "bad size '1.5g': sizes are whole numbers;");
        assertError(() -> Units.bytes("99999999999999g"), "bad size '99999999999999g': it is more than");
        assertError(() -> Units.bytes("9223372036854775808"), "bad size '9223372036854775808': it is more than");
        assertError(() -> Units.bytes("8388608t"), "it is more than 9223372036854775807 bytes");
        assertError(() -> Units.bytes("64x"), "bad size '64x': unknown unit 'x'");
        assertError(() -> Units.bytes("1ms"), "unknown unit 'ms'");
        for (String bad : new String[] {"", "k", "lots", "1 k", "0x10"}) {
            assertError(() -> Units.bytes(bad), "bad size '" + bad + "': ");
        }
        assertTrue(message(() -> Units.bytes("lots")).endsWith("e.g. 64m"));
    }

    @Test
    void durationsTakeTheUsualUnitsAndFractions() {
        assertEquals(Duration.ofSeconds(20), Units.duration("20s"));
        assertEquals(Duration.ofMillis(1500), Units.duration("1.5s"));
        assertEquals(Duration.ofMillis(500), Units.duration("500MS"));
        assertEquals(Duration.ofMinutes(2), Units.duration("2m"));
        assertEquals(Duration.ofSeconds(90), Units.duration("1.5m"));
        assertEquals(Duration.ofHours(1), Units.duration("1h"));
        assertEquals(Duration.ofNanos(1), Units.duration("1ns"));
        assertEquals(Duration.ofNanos(3000), Units.duration("3us"));
        assertEquals(Duration.ZERO, Units.duration("0s"));
    }

    @Test
    void badDurationsSayWhatIsWrongAndWhatIsAccepted() {
        assertError(() -> Units.duration("20"), "bad duration '20': it has no unit; use a number with ms, s, m or h");
        assertError(() -> Units.duration("-1s"), "bad duration '-1s': it is negative");
        assertError(() -> Units.duration("1x"), "bad duration '1x': unknown unit 'x'");
        assertError(() -> Units.duration("1.5ns"), "bad duration '1.5ns': it is a fraction of a nanosecond");
        assertError(() -> Units.duration("3000000h"), "bad duration '3000000h': it is more than");
        for (String bad : new String[] {"s", "NaNs", "1e3s", ""}) {
            assertError(() -> Units.duration(bad), "bad duration '" + bad + "': ");
        }
        assertTrue(message(() -> Units.duration("s")).endsWith("e.g. 20s or 1.5s"));
    }

    @Test
    void formatsReadBack() {
        assertEquals("64k", Units.formatBytes(65536));
        assertEquals("1g", Units.formatBytes(1L << 30));
        assertEquals("1000", Units.formatBytes(1000));
        assertEquals("0", Units.formatBytes(0));
        for (long bytes : new long[] {0, 1000, 65536, 1L << 30, 3L << 40, 1L << 50}) {
            assertEquals(bytes, Units.bytes(Units.formatBytes(bytes)));
        }
        assertEquals("20s", Units.formatDuration(Duration.ofSeconds(20)));
        assertEquals("500ms", Units.formatDuration(Duration.ofMillis(500)));
        assertEquals("1.5s", Units.formatDuration(Duration.ofMillis(1500)));
        for (Duration d : new Duration[] {Duration.ofNanos(7), Duration.ofMillis(1500), Duration.ofHours(3)}) {
            assertEquals(d, Units.duration(Units.formatDuration(d)));
        }
    }

    private static void assertError(Runnable parse, String expectedStart) {
        String message = message(parse);
        assertTrue(message.startsWith(expectedStart) || message.contains(expectedStart), message);
    }

    private static String message(Runnable parse) {
        return assertThrows(IllegalArgumentException.class, parse::run).getMessage();
    }
}
