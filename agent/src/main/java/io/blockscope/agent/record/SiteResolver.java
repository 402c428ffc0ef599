package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Copies;
import java.lang.StackWalker.StackFrame;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the call site of a sampled event: the first stack frame whose class is outside the
 * server's cache/cell machinery (the profile's {@code siteSkip} packages), the agent, and the JDK's
 * reflection plumbing. Formats it as {@code com.acme.MyFilter.filterCell:42}.
 *
 * <p>A sampled copy's site is needed at once: it costs one short walk and a map lookup (the
 * formatted name is cached per frame: class, method, bytecode index, because a frame's line
 * number is the expensive part). A tracked checkout's site is needed only if it leaks: it keeps
 * the stack as the VM captured it ({@link #capture}) and names nothing unless asked.
 */
public final class SiteResolver {

    /** Stack depth kept for the first-leak log line. */
    static final int STACK_DEPTH = 32;
    /** Distinct frames whose names are cached; beyond it names are formatted each time (bounded memory). */
    static final int MAX_CACHED_FRAMES = 4096;

    private static final String UNKNOWN = "unknown";
    private static final String AGENT_PACKAGE = "io.blockscope.agent.";
    private static final List<String> ALWAYS_SKIPPED =
            List.of(AGENT_PACKAGE, "java.lang.invoke.", "java.lang.reflect.", "jdk.internal.reflect.", "jdk.jfr.");

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

    /**
     * The call site of the current thread's caller chain. Inside a copy door that names its receiver
     * (a comparator's default buffer path), the site is named with that receiver's class too:
     * {@code org.apache.hadoop.hbase.filter.SingleColumnValueFilter(RegexStringComparator).filterColumnValue:244}.
     */
    public String site() {
        String site = walker.walk(frames -> frames.filter(f -> !isSkipped(f.getClassName()))
                .findFirst()
                .map(this::name)
                .orElse(UNKNOWN));
        Object doorReceiver = Copies.callSlot()[Copies.DOOR_RECEIVER];
        return doorReceiver instanceof Class ? withReceiver(site, (Class<?>) doorReceiver) : site;
    }

    /** {@code a.B.m:1} with receiver {@code c.D}: {@code a.B(D).m:1}. */
    static String withReceiver(String site, Class<?> receiver) {
        int end = site.lastIndexOf(':');
        int method = site.lastIndexOf('.', end < 0 ? site.length() : end);
        if (method < 0) {
            return site + "(" + simpleName(receiver) + ")";
        }
        return site.substring(0, method) + "(" + simpleName(receiver) + ")" + site.substring(method);
    }

    private static String simpleName(Class<?> type) {
        String simple = type.getSimpleName();
        return simple.isEmpty() ? type.getName() : simple;
    }

    /**
     * Where the current thread's caller chain is, for a checkout that may be reported as a leak much
     * later: the stack as the VM records a throwable's (a method and a bytecode index per frame,
     * nothing named), named only if it is asked for. A walk names every frame it passes, and one run
     * a hundred times a second never gets warm (about 100 us each on the example server's RPC
     * stack); nearly every tracked checkout is returned and never asks.
     */
    public CheckoutTracker.Origin capture() {
        if (receiverTypes.isEmpty()) {
            return new Acquisition(this, null, null);
        }
        // the innermost watched call, as it is now: it names a site in an inherited method
        Object[] slot = Copies.callSlot();
        return new Acquisition(this, (Class<?>) slot[Copies.RECEIVER], slot[Copies.RECEIVER_METHOD]);
    }

    /**
     * A captured stack. A {@link Throwable} only for the VM's cheap stack capture: never thrown,
     * no message, no suppressed list.
     */
    private static final class Acquisition extends Throwable implements CheckoutTracker.Origin {
        private static final long serialVersionUID = 1L;

        private final transient SiteResolver resolver;
        private final transient Class<?> receiver;
        private final transient Object receiverMethod;
        /** Named on first use; a race names it twice, the same way. */
        private transient volatile String site;

        Acquisition(SiteResolver resolver, Class<?> receiver, Object receiverMethod) {
            super(null, null, false, true);
            this.resolver = resolver;
            this.receiver = receiver;
            this.receiverMethod = receiverMethod;
        }

        @Override
        public String site() {
            String named = site;
            if (named == null) {
                named = UNKNOWN;
                for (StackTraceElement frame : getStackTrace()) {
                    if (!resolver.isSkipped(frame.getClassName())) {
                        named = resolver.name(frame, receiver, receiverMethod);
                        break;
                    }
                }
                site = named;
            }
            return named;
        }

        @Override
        public StackTraceElement[] stack() {
            StackTraceElement[] all = getStackTrace();
            int first = 0;
            while (first < all.length && all[first].getClassName().startsWith(AGENT_PACKAGE)) {
                first++;
            }
            return Arrays.copyOfRange(all, first, Math.min(all.length, first + STACK_DEPTH));
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
            String inherited =
                    inherited(frame.getClassName(), frame.getMethodName(), Copies.receiver(frame.getMethodName()));
            if (inherited != null) {
                return inherited;
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

    /** A captured frame's name, given the innermost watched call in progress when it was captured. */
    private String name(StackTraceElement frame, Class<?> receiver, Object receiverMethod) {
        if (receiverTypes.contains(frame.getClassName())
                && frame.getMethodName().equals(receiverMethod)) {
            String inherited = inherited(frame.getClassName(), frame.getMethodName(), receiver);
            if (inherited != null) {
                return inherited;
            }
        }
        int line = frame.getLineNumber();
        return frame.getClassName() + "." + frame.getMethodName() + (line >= 0 ? ":" + line : "");
    }

    /**
     * A watched method inherited by {@code receiver}'s class is named after the receiver: the
     * operator's class, not the declaring one. Null when the receiver is unknown or declares it.
     */
    private static String inherited(String declaring, String method, Class<?> receiver) {
        return receiver != null && !receiver.getName().equals(declaring) ? receiver.getName() + "." + method : null;
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
