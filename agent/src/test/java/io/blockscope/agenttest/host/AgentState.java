package io.blockscope.agenttest.host;

/**
 * The agent's state and port as a host reads them: the agent finishes its start on its own thread
 * after {@code premain}, and says {@code starting} until then, so a host that reports them waits
 * for that to end first (up to 60 s, polling).
 */
public final class AgentState {

    private static final long DEADLINE_NANOS = 60_000_000_000L;

    private AgentState() {}

    /** {@code blockscope.agent.state} once it no longer reads {@code starting} (null without the agent). */
    public static String state() {
        long start = System.nanoTime();
        String state = System.getProperty("blockscope.agent.state");
        while ("starting".equals(state) && System.nanoTime() - start < DEADLINE_NANOS) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            state = System.getProperty("blockscope.agent.state");
        }
        return state;
    }

    /** {@code blockscope.agent.port} once the start is done (null when nothing is served). */
    public static String port() {
        state();
        return System.getProperty("blockscope.agent.port");
    }
}
