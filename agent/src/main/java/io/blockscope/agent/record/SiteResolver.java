package io.blockscope.agent.record;

import java.lang.StackWalker.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Finds the call site of a sampled event: the first stack frame whose class is outside the
 * server's cache/cell machinery (the profile's {@code siteSkip} packages), the agent, and the JDK's
 * reflection plumbing. Formats it as {@code com.acme.MyFilter.filterCell:42}.
 */
public final class SiteResolver {

    /** Stack depth kept for the first-leak log line. */
    static final int STACK_DEPTH = 32;
    private static final String UNKNOWN = "unknown";
    private static final List<String> ALWAYS_SKIPPED = List.of(
            "io.blockscope.agent.", "java.lang.invoke.", "java.lang.reflect.", "jdk.internal.reflect.", "jdk.jfr.");

    private final StackWalker walker = StackWalker.getInstance();
    private final String[] skipped;

    public SiteResolver(List<String> skippedPrefixes) {
        List<String> all = new ArrayList<>(ALWAYS_SKIPPED);
        all.addAll(skippedPrefixes);
        this.skipped = all.toArray(String[]::new);
    }

    /** The call site of the current thread's caller chain. */
    public String site() {
        return walker.walk(frames -> frames.filter(f -> !isSkipped(f.getClassName()))
                .findFirst().map(SiteResolver::format).orElse(UNKNOWN));
    }

    /** The site and the stack below the agent's own frames, for events that may be logged later. */
    public Located locate() {
        List<StackFrame> stack = walker.walk(frames -> frames
                .dropWhile(f -> f.getClassName().startsWith("io.blockscope.agent."))
                .limit(STACK_DEPTH).collect(Collectors.toList()));
        String site = UNKNOWN;
        for (StackFrame frame : stack) {
            if (!isSkipped(frame.getClassName())) {
                site = format(frame);
                break;
            }
        }
        if (site.equals(UNKNOWN) && stack.size() == STACK_DEPTH) {
            site = site();
        }
        StackTraceElement[] elements = new StackTraceElement[stack.size()];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = stack.get(i).toStackTraceElement();
        }
        return new Located(site, elements);
    }

    /** A site and the stack it was found in. */
    public record Located(String site, StackTraceElement[] stack) {
    }

    boolean isSkipped(String className) {
        for (String prefix : skipped) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    static String format(StackFrame frame) {
        int line = frame.getLineNumber();
        return frame.getClassName() + "." + frame.getMethodName() + (line >= 0 ? ":" + line : "");
    }
}
