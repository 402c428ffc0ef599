package io.blockscope.agenttest.host;

/**
 * Reads the agent's state as soon as {@code main} runs, then at once uses a probe target, whose class
 * loads while the agent's start is still under way; prints what it read and, once the agent has
 * started, {@code ready port=N}; then waits for stdin to close.
 */
public final class StartupHost {

    public static void main(String[] args) throws Exception {
        String state = System.getProperty("blockscope.agent.state");
        String port = System.getProperty("blockscope.agent.port");
        int lookups = Integer.parseInt(args[0]);
        FakeCache cache = new FakeCache();
        for (long key = 0; key < lookups; key++) {
            Object block = cache.getBlock(key);
            if (block != null) {
                cache.returnBlock(key, block);
            }
        }
        System.out.println("at main state=" + state + " port=" + port);
        System.out.println("ready port=" + AgentState.port() + " state=" + AgentState.state());
        System.in.read();
    }
}
