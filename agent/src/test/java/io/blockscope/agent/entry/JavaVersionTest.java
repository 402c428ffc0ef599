package io.blockscope.agent.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * The entry's decision, on the values each JDK reports. The real check reads the running JVM's
 * {@code java.specification.version}; no JDK 8 runs here, so the Java 8 answer is tested on the
 * values Java 8 reports ("1.8", "1.8.0_392"), with no switch that could weaken the real check.
 */
class JavaVersionTest {

    private static final String OFF = "the agent is off, the application runs normally";

    @Test
    void featureOfEverySpecificationVersionForm() {
        assertEquals(8, JavaVersion.feature("1.8"));
        assertEquals(7, JavaVersion.feature("1.7"));
        assertEquals(9, JavaVersion.feature("9"));
        assertEquals(11, JavaVersion.feature("11"));
        assertEquals(25, JavaVersion.feature("25"));
        assertEquals(-1, JavaVersion.feature(null));
        assertEquals(-1, JavaVersion.feature("eleven"));
    }

    @Test
    void java8GetsTheOneLine() {
        assertEquals(
                "[blockscope] agent: needs Java 11 or newer, this is 1.8.0_392; " + OFF,
                JavaVersion.refusal("agent", "1.8", "1.8.0_392", OFF));
        assertEquals(
                "[blockscope] agent: needs Java 11 or newer, this is 10.0.2; " + OFF,
                JavaVersion.refusal("agent", "10", "10.0.2", OFF));
    }

    @Test
    void java11AndNewerRun() {
        assertNull(JavaVersion.refusal("agent", "11", "11.0.13", OFF));
        assertNull(JavaVersion.refusal("agent", "17", "17.0.15", OFF));
        assertNull(JavaVersion.refusal("agent", "25", "25.0.2", OFF));
    }

    @Test
    void anUnreadableVersionIsLeftToTheNewerCode() {
        // Refusing would turn the agent off on a JVM it may well serve; the Java 11 classes then load
        // or fail, and either way the entry catches it.
        assertNull(JavaVersion.refusal("agent", "weird", "weird", OFF));
    }

    @Test
    void thisJvmIsServed() {
        assertNull(JavaVersion.refusal(
                "agent", System.getProperty("java.specification.version"), System.getProperty("java.version"), OFF));
    }
}
