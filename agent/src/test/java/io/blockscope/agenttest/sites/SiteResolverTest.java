package io.blockscope.agenttest.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Bridge;
import io.blockscope.agent.record.SiteResolver;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lives outside io.blockscope.agent on purpose: the agent's own frames are never a site. */
class SiteResolverTest {

    /** Stands in for the cache/cell machinery: its frames are skipped. */
    static final class Machinery {
        static String resolve(SiteResolver resolver) {
            return resolver.site();
        }

        static SiteResolver.Located locate(SiteResolver resolver) {
            return resolver.locate();
        }
    }

    private final SiteResolver resolver = new SiteResolver(List.of(Machinery.class.getName()));

    @Test
    void theSiteIsTheFirstFrameOutsideTheSkippedPackages() {
        int line = currentLine() + 1;
        String site = Machinery.resolve(resolver);
        assertEquals(
                SiteResolverTest.class.getName() + ".theSiteIsTheFirstFrameOutsideTheSkippedPackages:" + line, site);
    }

    /** A base class whose inherited method is the site (like HBase's FilterBase.filterRowKey). */
    abstract static class BaseFilter {
        String inherited(SiteResolver resolver) {
            return Machinery.resolve(resolver);
        }
    }

    static final class ConcreteFilter extends BaseFilter {}

    @Test
    void aSiteInAWatchedInheritedMethodIsNamedAfterTheReceiver() {
        SiteResolver withReceivers =
                new SiteResolver(List.of(Machinery.class.getName()), java.util.Set.of(BaseFilter.class.getName()));
        Object[] slot = Bridge.receiverSlot();
        // what the receiver probe's advice stores while BaseFilter.inherited runs on a ConcreteFilter
        slot[0] = ConcreteFilter.class;
        slot[1] = "inherited";
        try {
            assertEquals(ConcreteFilter.class.getName() + ".inherited", new ConcreteFilter().inherited(withReceivers));
            slot[1] = "another";
            assertTrue(
                    new ConcreteFilter()
                            .inherited(withReceivers)
                            .startsWith(BaseFilter.class.getName() + ".inherited:"),
                    "a slot set by another watched method does not rename this frame");
        } finally {
            slot[0] = null;
            slot[1] = null;
        }
        assertTrue(
                new ConcreteFilter().inherited(withReceivers).startsWith(BaseFilter.class.getName() + ".inherited:"),
                "no watched call in progress: the declaring class, with its line");
    }

    @Test
    void withoutSkippedPackagesTheMachineryIsTheSite() {
        String site = Machinery.resolve(new SiteResolver(List.of()));
        assertTrue(site.startsWith(Machinery.class.getName() + ".resolve:"), site);
    }

    @Test
    void locateFindsTheSameSiteAndKeepsTheStackBelowTheAgent() {
        int line = currentLine() + 1;
        SiteResolver.Located located = Machinery.locate(resolver);
        assertEquals(
                SiteResolverTest.class.getName() + ".locateFindsTheSameSiteAndKeepsTheStackBelowTheAgent:" + line,
                located.site());
        assertEquals(Machinery.class.getName(), located.stack()[0].getClassName());
        assertTrue(located.stack().length > 2 && located.stack().length <= 32, "depth " + located.stack().length);
    }

    @Test
    void namesCachedPerFrameKeepLinesOfOneMethodApart() {
        String method = SiteResolverTest.class.getName() + ".namesCachedPerFrameKeepLinesOfOneMethodApart:";
        for (int round = 0; round < 3; round++) { // later rounds are served from the cache
            int lineA = currentLine() + 1;
            String a = Machinery.resolve(resolver);
            int lineB = currentLine() + 1;
            String b = Machinery.resolve(resolver);
            assertEquals(method + lineA, a, "round " + round);
            assertEquals(method + lineB, b, "round " + round);
        }
    }

    private static int currentLine() {
        return StackWalker.getInstance()
                .walk(s -> s.skip(1).findFirst().orElseThrow().getLineNumber());
    }
}
