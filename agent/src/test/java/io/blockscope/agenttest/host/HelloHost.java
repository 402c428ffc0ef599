package io.blockscope.agenttest.host;

/** A host with none of the agent's target classes: its work must complete whatever the agent does. */
public final class HelloHost {

    /** No argument: work and exit. {@code wait}: say "waiting", work until a line arrives on stdin, then exit. */
    public static void main(String[] args) throws Exception {
        boolean wait = args.length > 0 && args[0].equals("wait");
        if (wait) {
            System.out.println("waiting");
        }
        long sum = 0;
        do {
            for (int i = 0; i < 1000; i++) {
                sum += Integer.toString(i).hashCode();
            }
        } while (wait && System.in.available() == 0 && sleep());
        System.out.println("host done sum=" + sum + " agent=" + AgentState.state());
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(10);
        return true;
    }
}
