package io.blockscope.agent.bootstrap;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives each test a bridge of its own: the count of tracked checkouts is global, and checkouts other
 * tests' trackers left behind would send this test's returns to the sink. Sets that count aside
 * before each test and puts it back after; after each test, also uninstalls the test's sink and the
 * table of checked-out blocks. A test that leaves checkouts of its own tracked takes them out itself.
 */
public final class BridgeIsolation implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(BridgeIsolation.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        int elsewhere = Checkouts.trackedCheckouts();
        Checkouts.tracked(-elsewhere);
        context.getStore(NAMESPACE).put("elsewhere", elsewhere);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Bridge.install(Sink.NONE, 0, 0);
        Checkouts.matchReturns(0);
        Checkouts.tracked(context.getStore(NAMESPACE).get("elsewhere", Integer.class));
    }
}
