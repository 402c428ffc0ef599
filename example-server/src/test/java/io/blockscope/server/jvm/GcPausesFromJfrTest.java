package io.blockscope.server.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * PE's GC figures come from the exporter's JFR collector: per collector, JFR's names, pause time
 * (not MXBean collection time), and a settled reading holds every pause that ended before it.
 */
class GcPausesFromJfrTest {

    @Test
    void aSettledReadingHoldsThePauseOfACollectionThatJustEnded() {
        GcPauses pauses = GcPauses.shared();
        assertEquals("jfr", pauses.source());
        GcPauses.Reading before = pauses.read(true);
        GcPauses.Reading after;
        GcPauses.Reading delta;
        int calls = 0;
        do {
            // the VM may skip a System.gc() (a JNI critical region held it off): ask again, a few times
            System.gc();
            calls++;
            // JFR flushes about once a second: without the barrier this reading misses the pause
            after = pauses.read(true);
            assertTrue(after.settled(), "the barrier timed out");
            delta = after.minus(before);
        } while (delta.count() == 0 && calls < 3);
        assertTrue(delta.count() >= 1, "System.gc() paused the JVM, yet the reading saw " + delta);
        assertTrue(delta.seconds() > 0, delta.toString());
        Set<String> mxbeanNames = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName)
                .collect(Collectors.toSet());
        for (String gc : delta.byCollector().keySet()) {
            assertFalse(mxbeanNames.contains(gc), gc + " is an MXBean's name; JFR names collections (G1Full, ...)");
        }
    }
}
