package io.blockscope.agenttest.host;

/** Calls a method whose probe fails inside its advice: the calls must all complete normally. */
public final class BrokenProbeHost {

    public static void main(String[] args) throws java.io.IOException {
        FakeCache cache = new FakeCache();
        int nulls = 0;
        for (int i = 0; i < 1000; i++) {
            if (cache.brokenCopy() == null) {
                nulls++;
            }
            cache.release(i % 4 == 0);
        }
        System.out.println("host done nulls=" + nulls + " port=" + AgentState.port());
        System.in.read(); // stay up until the test has scraped
    }
}
