package io.blockscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.profile.ProfileParser;
import io.blockscope.agenttest.host.Hierarchy.Child;
import io.blockscope.agenttest.host.Hierarchy.Cousin;
import io.blockscope.agenttest.host.Hierarchy.FinalChild;
import io.blockscope.agenttest.host.Hierarchy.GrandChild;
import io.blockscope.agenttest.host.Hierarchy.Impl;
import io.blockscope.agenttest.host.Hierarchy.Marker;
import io.blockscope.agenttest.host.Hierarchy.Other;
import io.blockscope.agenttest.host.Hierarchy.OtherList;
import io.blockscope.agenttest.host.Hierarchy.Root;
import io.blockscope.agenttest.host.Hierarchy.SubImpl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The filter in front of ByteBuddy: which loading classes may be probe targets, from names and headers only. */
class TargetFilterTest {

    private static final ClassLoader LOADER = TargetFilterTest.class.getClassLoader();

    @Test
    void exactNamesPassAndEverythingElseIsRuledOutWithoutReadingAnything() {
        CountingLoader loader = new CountingLoader(LOADER);
        TargetFilter filter = new TargetFilter(Set.of(name(Other.class)), Set.of(), false);
        assertTrue(filter.mayMatch(name(Other.class), loader, bytes(Other.class)));
        assertFalse(filter.mayMatch(name(GrandChild.class), loader, bytes(GrandChild.class)));
        assertFalse(filter.mayMatch(null, loader, bytes(Other.class)), "a class without a name is no target");
        assertEquals(List.of(), loader.reads, "with no subtype probe no class file is read");
    }

    @Test
    void theJdksAndTheAgentsOwnClassesAreNeverTargets() {
        TargetFilter filter = new TargetFilter(
                Set.of("java/util/ArrayList", "io/blockscope/agent/Anything"), Set.of(name(Root.class)), false);
        assertFalse(filter.mayMatch("java/util/ArrayList", LOADER, bytes(Other.class)));
        assertFalse(filter.mayMatch("io/blockscope/agent/Anything", LOADER, bytes(Child.class)));
        assertFalse(filter.mayMatch("jdk/internal/Foo", LOADER, bytes(Child.class)));
    }

    @Test
    void subtypesOfAClassAreFoundAlongTheSuperclassChain() {
        TargetFilter filter = new TargetFilter(Set.of(), Set.of(name(Root.class)), false);
        assertTrue(filter.mayMatch(name(Root.class), LOADER, bytes(Root.class)), "the root itself");
        assertTrue(filter.mayMatch(name(Child.class), LOADER, bytes(Child.class)));
        assertTrue(filter.mayMatch(name(GrandChild.class), LOADER, bytes(GrandChild.class)));
        assertFalse(filter.mayMatch(name(Other.class), LOADER, bytes(Other.class)));
        assertFalse(filter.mayMatch(name(OtherList.class), LOADER, bytes(OtherList.class)), "java.* ends the chain");
        assertFalse(filter.mayMatch(name(SubImpl.class), LOADER, bytes(SubImpl.class)));
    }

    @Test
    void eachSuperclassIsReadOncePerLoader() {
        CountingLoader loader = new CountingLoader(LOADER);
        TargetFilter filter = new TargetFilter(Set.of(), Set.of(name(Root.class)), false);
        // The JVM hands a class to transformers before it loads its superclass: Child is read here ...
        assertTrue(filter.mayMatch(name(GrandChild.class), loader, bytes(GrandChild.class)));
        assertTrue(filter.mayMatch(name(Cousin.class), loader, bytes(Cousin.class)));
        // ... and when it loads itself, its verdict is already known
        assertTrue(filter.mayMatch(name(Child.class), loader, bytes(Child.class)));
        assertEquals(List.of(name(Child.class) + ".class"), loader.reads);
        // a class's own verdict is kept for its subclasses to come (not a final one's: it has none)
        assertTrue(filter.mayMatch(name(FinalChild.class), loader, bytes(FinalChild.class)));
        assertFalse(filter.mayMatch(name(Impl.class), loader, bytes(Impl.class)));
        assertFalse(filter.mayMatch(name(SubImpl.class), loader, bytes(SubImpl.class)));
        assertEquals(List.of(name(Child.class) + ".class"), loader.reads, "Impl was known when SubImpl came");
    }

    @Test
    void interfaceRootsFollowImplementedInterfacesAndTheProfileSaysWhichRootsAreInterfaces() {
        TargetFilter filter = TargetFilter.of(
                ProfileParser.parse(
                        "{\"name\": \"t\", \"probes\": [{\"name\": \"c\", \"kind\": \"copy\", \"types\": [\"subtype:"
                                + Marker.class.getName()
                                + "\"], \"methods\": [\"x()\"], \"value\": \"return.length\", \"component\": \"value\"}]}",
                        "test"),
                LOADER);
        assertTrue(filter.mayMatch(name(Impl.class), LOADER, bytes(Impl.class)));
        assertTrue(filter.mayMatch(name(SubImpl.class), LOADER, bytes(SubImpl.class)), "through its superclass");
        assertFalse(filter.mayMatch(name(Other.class), LOADER, bytes(Other.class)));
        assertTrue(TargetFilter.isClass(LOADER, name(Root.class)));
        assertFalse(TargetFilter.isClass(LOADER, name(Marker.class)));
        assertFalse(TargetFilter.isClass(LOADER, "com/acme/Missing"), "unknown: maybe an interface");
    }

    @Test
    void aSuperclassItCannotReadLeavesTheDecisionToByteBuddy() {
        ClassLoader blind = new ClassLoader(null) {};
        TargetFilter filter = new TargetFilter(Set.of(), Set.of(name(Root.class)), false);
        assertTrue(filter.mayMatch(name(GrandChild.class), blind, bytes(GrandChild.class)));
        assertTrue(filter.mayMatch(name(Other.class), blind, new byte[] {1, 2, 3}), "not a class file: maybe");
    }

    @Test
    void loadedClassesAreJudgedFromTheirLoadedHierarchy() {
        TargetFilter subtypes = new TargetFilter(Set.of(name(Other.class)), Set.of(name(Root.class)), false);
        assertTrue(subtypes.mayMatch(Root.class), "the root itself");
        assertTrue(subtypes.mayMatch(GrandChild.class));
        assertTrue(subtypes.mayMatch(FinalChild.class));
        assertTrue(subtypes.mayMatch(Other.class), "an exact name");
        assertFalse(subtypes.mayMatch(SubImpl.class));
        assertFalse(subtypes.mayMatch(OtherList.class));
        assertFalse(subtypes.mayMatch(java.util.ArrayList.class), "the bootstrap loader's classes never");
        assertFalse(subtypes.mayMatch(TargetFilter.class), "nor the agent's own");
        TargetFilter interfaces = new TargetFilter(Set.of(), Set.of(name(Marker.class)), true);
        assertTrue(interfaces.mayMatch(SubImpl.class), "an interface root, through the superclass's interfaces");
        assertFalse(interfaces.mayMatch(Marker.class), "an interface is no target itself");
        assertFalse(interfaces.mayMatch(Child.class));
    }

    @Test
    void anInterfaceNamedExactlyMayBeATargetLoadedOrLoading() {
        TargetFilter named = new TargetFilter(Set.of(name(Marker.class)), Set.of(), false);
        assertTrue(named.mayMatch(Marker.class), "loaded before the agent: its static methods have code");
        assertTrue(named.mayMatch(name(Marker.class), LOADER, bytes(Marker.class)));
        assertFalse(named.mayMatch(Impl.class), "not its implementations");
    }

    private static String name(Class<?> type) {
        return type.getName().replace('.', '/');
    }

    private static byte[] bytes(Class<?> type) {
        try (InputStream in = LOADER.getResourceAsStream(name(type) + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records the class files read through it. */
    private static final class CountingLoader extends ClassLoader {
        final List<String> reads = new ArrayList<>();

        CountingLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            reads.add(name);
            return super.getResourceAsStream(name);
        }
    }
}
