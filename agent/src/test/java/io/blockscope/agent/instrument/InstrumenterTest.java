package io.blockscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.profile.MethodSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.ProfileParser;
import io.blockscope.agent.profile.TypeSpec;
import io.blockscope.agenttest.host.Hierarchy.Impl;
import io.blockscope.agenttest.host.Hierarchy.Marker;
import java.util.List;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

class InstrumenterTest {

    private static final Profile PROFILE = ProfileParser.parse(
            "{\"name\": \"t\", \"probes\": ["
                    + "{\"name\": \"occupancy\", \"kind\": \"occupancy\", \"types\": [\"a.Cache\"],"
                    + " \"methods\": [\"<init>\", \"getBlock(a.Key)\"], \"occupancy\": {\"capacity\": \"this.capacity()\"}},"
                    + "{\"name\": \"occupancy-by-use\", \"kind\": \"occupancy\", \"types\": [\"a.Cache\"],"
                    + " \"methods\": [\"getBlock(a.Key)\"], \"occupancy\": {\"capacity\": \"this.capacity()\"}},"
                    + "{\"name\": \"get\", \"kind\": \"block-get\", \"types\": [\"a.Cache\"],"
                    + " \"methods\": [\"<init>\", \"getBlock(a.Key)\"], \"value\": \"return\", \"tier\": \"l1\"}]}",
            "test");

    @Test
    void atStartAnOccupancyProbeCapturesInItsConstructorsOnly() {
        assertEquals(
                List.of(MethodSpec.parse("<init>")),
                Instrumenter.methodsToInstrument(PROFILE.probe("occupancy"), false),
                "every instance is built after the probes are in: getBlock would only pay an identity hash");
    }

    @Test
    void afterALateAttachItAlsoCapturesOnUse() {
        assertEquals(
                PROFILE.probe("occupancy").methods(),
                Instrumenter.methodsToInstrument(PROFILE.probe("occupancy"), true),
                "instances built before the attach are found on their next getBlock");
    }

    @Test
    void aProbeWithoutAConstructorOrOfAnotherKindKeepsItsMethods() {
        assertEquals(
                PROFILE.probe("occupancy-by-use").methods(),
                Instrumenter.methodsToInstrument(PROFILE.probe("occupancy-by-use"), false));
        assertEquals(PROFILE.probe("get").methods(), Instrumenter.methodsToInstrument(PROFILE.probe("get"), false));
    }

    @Test
    void anInterfaceNamedExactlyIsATargetButNotWhenItIsASubtypeRoot() {
        TypeDescription marker = TypeDescription.ForLoadedType.of(Marker.class);
        assertTrue(
                Instrumenter.typeMatcher(List.of(TypeSpec.parse(Marker.class.getName())))
                        .matches(marker),
                "named: its static methods have code (HBase's Tag.cloneValue)");
        TypeSpec root = TypeSpec.parse("subtype:" + Marker.class.getName());
        assertFalse(Instrumenter.typeMatcher(List.of(root)).matches(marker), "a root interface: only its classes");
        assertTrue(Instrumenter.typeMatcher(List.of(root)).matches(TypeDescription.ForLoadedType.of(Impl.class)));
    }
}
