package io.blockscope.agenttest.host;

/** A host with none of the agent's target classes: its work must complete whatever the agent does. */
public final class HelloHost {

    public static void main(String[] args) throws Exception {
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 0;
        long sum = 0;
        long end = System.currentTimeMillis() + millis;
        do {
            for (int i = 0; i < 1000; i++) {
                sum += Integer.toString(i).hashCode();
            }
            if (millis > 0) {
                Thread.sleep(10);
            }
        } while (System.currentTimeMillis() < end);
        System.out.println("host done sum=" + sum + " agent=" + System.getProperty("blockscope.agent.state"));
    }
}
