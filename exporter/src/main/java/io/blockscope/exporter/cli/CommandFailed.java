package io.blockscope.exporter.cli;

/**
 * How blockscope's command-line tools (the agent's {@code attach} launcher, the password hasher)
 * fail from {@code main}: by throwing this, never by ending the JVM.
 *
 * <p>Those tools live in jars whose other classes run inside other people's JVMs, and a host that
 * calls a {@code main} (by reflection, a plugin loader, a test) must go on. An exception out of
 * {@code main} makes the {@code java} launcher exit with status 1, which is all a script needs; the
 * tool has already printed what went wrong and what to do, so this carries no stack trace, only the
 * tool's own finer status (the same one its {@code run} method returns to tests).
 */
public final class CommandFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    private CommandFailed(String tool, int status) {
        super(tool + " failed with status " + status + " (the reason is printed above)", null, false, false);
        this.status = status;
    }

    /** Returns for status 0; otherwise throws, so the command's process exits with status 1. */
    public static void check(String tool, int status) {
        if (status != 0) {
            throw new CommandFailed(tool, status);
        }
    }

    /** The tool's own status: what went wrong, for a caller that runs the tool in its own JVM. */
    public int status() {
        return status;
    }
}
