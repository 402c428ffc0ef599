package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Bridge;
import java.lang.StackWalker.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Finds the call site of a sampled event: the first stack frame whose class is outside the
 * server's cache/cell machinery (the profile's {@code siteSkip} packages), the agent, and the JDK's
 * reflection plumbing. Formats it as {@code com.acme.MyFilter.filterCell:42}.
 *
 * <p>Sampled events come by the hundred per second, so a site costs one short walk and a map
 * lookup: the formatted name is cached per frame (class, method, bytecode index), because a
 * frame's line number is the expensive part (the JDK builds a {@code StackTraceElement} for it).
 * Kept stacks stay {@link StackFrame}s until a leak is logged, which converts them.
 */
public final class SiteResolver {

    /** Stack depth kept for the first-leak log line. */
    static final int STACK_DEPTH = 32;
    /** Distinct frames whose names are cached; beyond it names are formatted each time (bounded memory). */
    static final int MAX_CACHED_FRAMES = 4096;

    private static final String UNKNOWN = "unknown";
    private static final List<String> ALWAYS_SKIPPED = List.of(
            "io.blockscope.agent.", "java.lang.invoke.", "java.lang.reflect.", "jdk.internal.reflect.", "jdk.jfr.");

    private final StackWalker walker = StackWalker.getInstance();
    private final String[] skipped;
    private final Map<FrameKey, String> names = new ConcurrentHashMap<>();
    private final Set<String> receiverTypes;

    public SiteResolver(List<String> skippedPrefixes) {
        this(skippedPrefixes, Set.of());
    }

    /**
     * @param receiverTypes classes whose watched methods (receiver probes) name a site after the
     *     receiver's concrete class when the receiver inherits them
     */
    public SiteResolver(List<String> skippedPrefixes, Set<String> receiverTypes) {
        this.receiverTypes = Set.copyOf(receiverTypes);
        List<String> all = new ArrayList<>(ALWAYS_SKIPPED);
        all.addAll(skippedPrefixes);
        this.skipped = all.toArray(String[]::new);
    }

    /** The call site of the current thread's caller chain. */
    public String site() {
        return walker.walk(frames -> frames.filter(f -> !isSkipped(f.getClassName()))
                .findFirst()
                .map(this::name)
                .orElse(UNKNOWN));
    }

    /** The site and the stack below the agent's own frames, for events that may be logged later. */
    public Located locate() {
        List<StackFrame> stack =
                walker.walk(frames -> frames.dropWhile(f -> f.getClassName().startsWith("io.blockscope.agent."))
                        .limit(STACK_DEPTH)
                        .collect(Collectors.toList()));
        String site = UNKNOWN;
        for (StackFrame frame : stack) {
            if (!isSkipped(frame.getClassName())) {
                site = name(frame);
                break;
            }
        }
        if (site.equals(UNKNOWN) && stack.size() == STACK_DEPTH) {
            site = site();
        }
        return new Located(site, stack);
    }

    /** A site and the stack it was found in, innermost frame first. */
    public static final class Located {
        private final String site;
        private final List<StackFrame> frames;

        public Located(String site, List<StackFrame> frames) {
            this.site = site;
            this.frames = frames;
        }

        public String site() {
            return site;
        }

        public List<StackFrame> frames() {
            return frames;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Located)) {
                return false;
            }
            Located that = (Located) o;
            return java.util.Objects.equals(site, that.site) && java.util.Objects.equals(frames, that.frames);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(site, frames);
        }

        @Override
        public String toString() {
            return "Located[site=" + site + ", frames=" + frames + "]";
        }

        /** The stack as {@link StackTraceElement}s: built on demand, for a log line. */
        public StackTraceElement[] stack() {
            return frames.stream().map(StackFrame::toStackTraceElement).toArray(StackTraceElement[]::new);
        }
    }

    boolean isSkipped(String className) {
        for (String prefix : skipped) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private String name(StackFrame frame) {
        if (receiverTypes.contains(frame.getClassName())) {
            Class<?> receiver = Bridge.receiver(frame.getMethodName());
            if (receiver != null && !receiver.getName().equals(frame.getClassName())) {
                // an inherited method: the operator's class is the receiver's, not the declaring one
                return receiver.getName() + "." + frame.getMethodName();
            }
        }
        FrameKey key = new FrameKey(frame.getClassName(), frame.getMethodName(), frame.getByteCodeIndex());
        String name = names.get(key);
        if (name == null) {
            name = format(frame);
            if (names.size() < MAX_CACHED_FRAMES) {
                names.putIfAbsent(key, name);
            }
        }
        return name;
    }

    /** Frames with the same class, method and bytecode index are the same source line. */
    private static final class FrameKey {
        private final String className;
        private final String methodName;
        private final int bytecodeIndex;

        private FrameKey(String className, String methodName, int bytecodeIndex) {
            this.className = className;
            this.methodName = methodName;
            this.bytecodeIndex = bytecodeIndex;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof FrameKey)) {
                return false;
            }
            FrameKey that = (FrameKey) o;
            return java.util.Objects.equals(className, that.className)
                    && java.util.Objects.equals(methodName, that.methodName)
                    && bytecodeIndex == that.bytecodeIndex;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(className, methodName, bytecodeIndex);
        }

        @Override
        public String toString() {
            return "FrameKey[className=" + className + ", methodName=" + methodName + ", bytecodeIndex=" + bytecodeIndex
                    + "]";
        }
    }

    static String format(StackFrame frame) {
        int line = frame.getLineNumber();
        return frame.getClassName() + "." + frame.getMethodName() + (line >= 0 ? ":" + line : "");
    }
}
