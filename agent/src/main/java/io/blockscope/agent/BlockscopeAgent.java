package io.blockscope.agent;

import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent's entry point: {@code -javaagent:blockscope-agent.jar=[host:]port[,key=value...]}
 * ({@link #premain}) or a dynamic attach ({@link #agentmain}, see {@link Launcher}).
 *
 * <p>The agent must never hurt its host: startup catches every {@link Throwable}, logs one line
 * saying what to do, and returns. It never rethrows and never ends the JVM.
 *
 * <p>This class and {@link AgentRuntime} must stay free of references to the bridge classes: they
 * are only loadable after {@link BootstrapInjector} appended them to the bootstrap class loader, and
 * a class is verified (which may load the types it uses) before it runs. {@link AgentWiring}, which
 * uses them, is linked only once they are there.
 */
public final class BlockscopeAgent {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private BlockscopeAgent() {}

    public static void premain(String argument, Instrumentation instrumentation) {
        start(argument, instrumentation, false);
    }

    public static void agentmain(String argument, Instrumentation instrumentation) {
        start(argument, instrumentation, true);
    }

    private static void start(String argument, Instrumentation instrumentation, boolean lateAttach) {
        long began = System.nanoTime();
        try {
            if (!STARTED.compareAndSet(false, true)) {
                AgentLog.warn("the agent is already running in this JVM; ignoring the second start (" + argument + ")");
                return;
            }
            AgentRuntime.Setup setup = AgentRuntime.prepare(argument, instrumentation);
            BootstrapInjector.inject(instrumentation);
            AgentWiring.start(setup, instrumentation, lateAttach, began);
        } catch (Throwable t) {
            AgentLog.disabled(t);
        }
    }
}
