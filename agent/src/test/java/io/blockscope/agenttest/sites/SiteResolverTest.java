package io.blockscope.agenttest.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Copies;
import io.blockscope.agent.record.CheckoutTracker;
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

        static CheckoutTracker.Origin capture(SiteResolver resolver) {
            return resolver.capture();
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

        CheckoutTracker.Origin captured(SiteResolver resolver) {
            return Machinery.capture(resolver);
        }
    }

    static final class ConcreteFilter extends BaseFilter {}

    @Test
    void aSiteInAWatchedInheritedMethodIsNamedAfterTheReceiver() {
        SiteResolver withReceivers =
                new SiteResolver(List.of(Machinery.class.getName()), java.util.Set.of(BaseFilter.class.getName()));
        Object[] slot = Copies.callSlot();
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
    void aSiteInsideADoorThatNamesItsReceiverCarriesTheReceiversClass() {
        Object[] slot = Copies.callSlot();
        // what a comparator door's advice stores while a filter's comparator copies
        slot[Copies.DOOR_RECEIVER] = ConcreteFilter.class;
        int line;
        String site;
        try {
            line = currentLine() + 1;
            site = Machinery.resolve(resolver);
        } finally {
            slot[Copies.DOOR_RECEIVER] = null;
        }
        assertEquals(
                SiteResolverTest.class.getName()
                        + "(ConcreteFilter).aSiteInsideADoorThatNamesItsReceiverCarriesTheReceiversClass:" + line,
                site);
        assertTrue(
                Machinery.resolve(resolver).startsWith(SiteResolverTest.class.getName() + ".aSiteInside"),
                "outside the door: the plain site");
    }

    @Test
    void withoutSkippedPackagesTheMachineryIsTheSite() {
        String site = Machinery.resolve(new SiteResolver(List.of()));
        assertTrue(site.startsWith(Machinery.class.getName() + ".resolve:"), site);
    }

    @Test
    void aCaptureNamesTheSiteItWasTakenAtWhenAskedLaterElsewhere() throws Exception {
        int line = currentLine() + 1;
        CheckoutTracker.Origin origin = Machinery.capture(resolver);
        // asked from another method on another thread, as a leak is reported: the capture's site
        String[] site = new String[1];
        Thread reporter = new Thread(() -> site[0] = origin.site());
        reporter.start();
        reporter.join();
        assertEquals(
                SiteResolverTest.class.getName() + ".aCaptureNamesTheSiteItWasTakenAtWhenAskedLaterElsewhere:" + line,
                site[0]);
        StackTraceElement[] stack = origin.stack();
        assertEquals(Machinery.class.getName(), stack[0].getClassName(), "the agent's own frames are left out");
        assertEquals("capture", stack[0].getMethodName());
        assertTrue(stack.length > 2 && stack.length <= 32, "depth " + stack.length);
    }

    @Test
    void aCaptureInAWatchedInheritedMethodIsNamedAfterTheReceiverOfThatMoment() {
        SiteResolver withReceivers =
                new SiteResolver(List.of(Machinery.class.getName()), java.util.Set.of(BaseFilter.class.getName()));
        Object[] slot = Copies.callSlot();
        CheckoutTracker.Origin origin;
        slot[0] = ConcreteFilter.class;
        slot[1] = "captured";
        try {
            origin = new ConcreteFilter().captured(withReceivers);
        } finally {
            slot[0] = null;
            slot[1] = null;
        }
        assertEquals(
                ConcreteFilter.class.getName() + ".captured", origin.site(), "named after the receiver it had then");
        assertTrue(
                new ConcreteFilter()
                        .captured(withReceivers)
                        .site()
                        .startsWith(BaseFilter.class.getName() + ".captured:"),
                "no watched call in progress: the declaring class, with its line");
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
