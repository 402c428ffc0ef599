package io.blockscope.server.pe;

/** A JVM that waits to be looked at (ProbeSwitchRunTest attaches to it), then exits on its own. */
public final class IdleJvm {

    private IdleJvm() {}

    public static void main(String[] args) throws InterruptedException {
        System.out.println("idle");
        System.out.flush();
        Thread.sleep(60_000);
    }
}
