package io.blockscope.agent;

import io.blockscope.exporter.Log;

/**
 * The agent's startup messages. Goes through the exporter's {@link Log} (stderr, {@code [blockscope]}
 * prefix), with a last-resort fallback should even that class be unusable.
 */
final class AgentLog {

    static final String STATE_PROPERTY = "blockscope.agent.state";

    private AgentLog() {}

    static void info(String message) {
        try {
            Log.info(message);
        } catch (Throwable t) {
            System.err.println("[blockscope] INFO " + message);
        }
    }

    static void warn(String message) {
        try {
            Log.warn(message);
        } catch (Throwable t) {
            System.err.println("[blockscope] WARN " + message);
        }
    }

    /** The one line for a failed start: what went wrong and what to do; the host goes on. */
    static void disabled(Throwable t) {
        String why = t instanceof IllegalArgumentException
                ? t.getMessage()
                : t.getClass().getName() + ": " + t.getMessage();
        String message = "agent disabled, the application runs without it: " + why
                + (t instanceof IllegalArgumentException ? "" : " (please report this with the stack trace below)");
        warn(message);
        if (!(t instanceof IllegalArgumentException)) {
            t.printStackTrace();
        }
        try {
            System.setProperty(STATE_PROPERTY, "disabled: " + why);
        } catch (Throwable ignored) {
            // a security manager may refuse; the log line is what matters
        }
    }
}
