package io.blockscope.testsupport;

/** Closes what a test class started, in order, skipping what never started. */
public final class Closer {

    private Closer() {}

    /**
     * Closes each non-null resource in the given order; every one is closed even when one fails, and
     * the first failure is thrown with the later ones attached, so a failed stop leaves no process behind.
     */
    public static void closeAll(AutoCloseable... resources) throws Exception {
        Exception first = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
