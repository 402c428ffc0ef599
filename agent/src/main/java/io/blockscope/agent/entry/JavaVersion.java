package io.blockscope.agent.entry;

/**
 * Which Java this is, read from system properties only. Compiled for Java 8 like the rest of this
 * package, and refers to nothing newer.
 */
public final class JavaVersion {

    /** The oldest Java the agent serves. */
    public static final int REQUIRED = 11;

    private JavaVersion() {}

    /**
     * The feature release of a {@code java.specification.version} value: {@code "1.8"} is 8,
     * {@code "11"} is 11; -1 when it cannot be read.
     */
    public static int feature(String specificationVersion) {
        if (specificationVersion == null) {
            return -1;
        }
        String v = specificationVersion.trim();
        if (v.startsWith("1.")) {
            v = v.substring(2);
        }
        int dot = v.indexOf('.');
        if (dot >= 0) {
            v = v.substring(0, dot);
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The one line that says why the agent stays off on this Java, or null when it can run. An
     * unreadable version counts as new enough: the newer code checks again on its own terms.
     *
     * @param who what is talking, e.g. {@code agent} or {@code attach}
     * @param specificationVersion {@code java.specification.version} of the JVM in question
     * @param javaVersion its {@code java.version}, for the message
     * @param outcome what happens instead, e.g. {@code the agent is off, the application runs normally}
     */
    public static String refusal(String who, String specificationVersion, String javaVersion, String outcome) {
        int feature = feature(specificationVersion);
        if (feature < 0 || feature >= REQUIRED) {
            return null;
        }
        return "[blockscope] " + who + ": needs Java " + REQUIRED + " or newer, this is " + javaVersion + "; "
                + outcome;
    }
}
