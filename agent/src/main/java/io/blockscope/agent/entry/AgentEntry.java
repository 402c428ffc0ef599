package io.blockscope.agent.entry;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;

/**
 * The agent jar's {@code Premain-Class} and {@code Agent-Class}: the first class any JVM loads from
 * the jar, so it is compiled for Java 8 and refers only to classes Java 8 has. On Java 8 (or 9, 10)
 * it prints one line and returns, and the host runs as if the agent were not there; on 11+ it hands
 * over, by name, to {@code io.blockscope.agent.BlockscopeAgent} (Java 11 class files).
 *
 * <p>Without this a Java 8 JVM fails to load a newer class file here, and a failing {@code
 * -javaagent} aborts the JVM before the application's main ever runs.
 */
public final class AgentEntry {

    static final String AGENT = "io.blockscope.agent.BlockscopeAgent";
    static final String OFF = "the agent is off, the application runs normally";
    /** Read by the attach launcher through the Attach API; the agent itself sets it on 11+. */
    static final String STATE_PROPERTY = "blockscope.agent.state";

    private AgentEntry() {}

    public static void premain(String argument, Instrumentation instrumentation) {
        start("premain", argument, instrumentation);
    }

    public static void agentmain(String argument, Instrumentation instrumentation) {
        start("agentmain", argument, instrumentation);
    }

    private static void start(String method, String argument, Instrumentation instrumentation) {
        try {
            String refusal = JavaVersion.refusal(
                    "agent", System.getProperty("java.specification.version"), System.getProperty("java.version"), OFF);
            if (refusal != null) {
                System.err.println(refusal);
                System.setProperty(STATE_PROPERTY, "disabled: needs Java " + JavaVersion.REQUIRED + " or newer");
                return;
            }
            Class.forName(AGENT, true, AgentEntry.class.getClassLoader())
                    .getMethod(method, String.class, Instrumentation.class)
                    .invoke(null, argument, instrumentation);
        } catch (InvocationTargetException e) {
            // BlockscopeAgent catches everything itself; reaching here is a bug, and still not the host's problem
            System.err.println("[blockscope] agent: failed to start: " + e.getCause() + "; " + OFF);
        } catch (Throwable t) {
            System.err.println("[blockscope] agent: failed to start: " + t + "; " + OFF);
        }
    }
}
