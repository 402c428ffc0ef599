package io.blockscope.agent.instrument;

import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.TypeSpec;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.SoftReference;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Says, for a class being loaded, whether it can be a target of any probe of a profile, from its
 * name and, for {@code subtype:} probes, from the header of its class file (superclass and
 * interface names), before ByteBuddy builds any description of it. A RegionServer loads some 15,000
 * classes and a handful are targets: letting ByteBuddy parse each one and resolve its hierarchy
 * cost seconds of start-up.
 *
 * <p>A superclass's header is read from its class loader as a resource, once per loader and name:
 * the JVM hands a class to the transformers before it loads the superclass, so the superclass's
 * own bytes are not there yet. When unsure (a class file it cannot read), the answer is yes and
 * ByteBuddy's matchers decide: this only ever saves work, it never decides alone that a class is
 * a target.
 */
public final class TargetFilter {

    /** Never targets: the JDK's classes and the agent's own (with its relocated libraries). */
    private static final List<String> IGNORED =
            List.of("java/", "jdk/", "sun/", "com/sun/", "io/blockscope/agent/", "net/bytebuddy/");
    /** Deeper than any real hierarchy: past it the answer is "maybe", never a loop. */
    private static final int MAX_DEPTH = 64;

    private final Set<String> names;
    private final Set<String> roots;
    /** Some root is (or may be) an interface: implemented interfaces are followed too. */
    private final boolean interfaces;
    /** Per class loader: internal name -> is it, or does it extend/implement, a root. */
    private final Map<ClassLoader, SoftReference<Map<String, Boolean>>> verdicts = new WeakHashMap<>();

    TargetFilter(Set<String> names, Set<String> roots, boolean interfaces) {
        this.names = Set.copyOf(names);
        this.roots = Set.copyOf(roots);
        this.interfaces = interfaces;
    }

    /**
     * The filter for every probe of {@code profile}; {@code hostLoader} tells whether a
     * {@code subtype:} root is a class (then only superclasses are followed) or an interface.
     */
    public static TargetFilter of(Profile profile, ClassLoader hostLoader) {
        Set<String> names = new HashSet<>();
        Set<String> roots = new HashSet<>();
        boolean interfaces = false;
        for (ProbeSpec probe : profile.probes()) {
            for (TypeSpec type : probe.types()) {
                String internal = type.name().replace('.', '/');
                if (!type.subtypes()) {
                    names.add(internal);
                    continue;
                }
                roots.add(internal);
                interfaces |= !isClass(hostLoader, internal);
            }
        }
        return new TargetFilter(names, roots, interfaces);
    }

    /**
     * True when {@code loader} has the class file of {@code internalName} and it is a class, not an
     * interface; false (a possible interface) when the file is not there to tell.
     */
    static boolean isClass(ClassLoader loader, String internalName) {
        ClassReader header = header(read(loader, internalName));
        return header != null && (header.getAccess() & Opcodes.ACC_INTERFACE) == 0;
    }

    /**
     * Whether the class {@code internalName} (as transformers get it: {@code a/b/C}), defined by
     * {@code loader} from {@code classFile}, may be a probe target.
     */
    public boolean mayMatch(String internalName, ClassLoader loader, byte[] classFile) {
        if (internalName == null || ignored(internalName)) {
            return false;
        }
        if (names.contains(internalName) || roots.contains(internalName)) {
            return true;
        }
        if (roots.isEmpty()) {
            return false;
        }
        Map<String, Boolean> known = knownFor(loader);
        Boolean verdict = known.get(internalName);
        if (verdict != null) {
            return verdict;
        }
        ClassReader header = header(classFile);
        if (header == null) {
            return true; // not a class file this reader knows: ByteBuddy decides
        }
        verdict = supertypesReachRoot(header, loader, known, 0);
        if ((header.getAccess() & Opcodes.ACC_FINAL) == 0) {
            known.put(internalName, verdict); // a superclass-to-be; a final class never is one
        }
        return verdict;
    }

    /**
     * Whether the already loaded {@code type} may be a probe target: the same answer as for its
     * class file, from the loaded hierarchy. A late attach, and the agent's own start on its
     * background thread, retransform only the loaded classes that pass here: ByteBuddy's matchers
     * on each of the thousands already loaded cost more than the whole rest of the start.
     */
    public boolean mayMatch(Class<?> type) {
        if (type.getClassLoader() == null || type.isArray() || type.isPrimitive()) {
            return false; // bootstrap classes are ignored
        }
        String internalName = type.getName().replace('.', '/');
        if (ignored(internalName)) {
            return false;
        }
        if (names.contains(internalName)) {
            return true; // named exactly: a class, or an interface with static methods (typeMatcher)
        }
        // a subtype root's interfaces are no targets themselves, only the classes implementing them
        return !type.isInterface() && !roots.isEmpty() && reachesRoot(type, 0);
    }

    private boolean reachesRoot(Class<?> type, int depth) {
        if (type == null || depth > MAX_DEPTH) {
            return false;
        }
        if (roots.contains(type.getName().replace('.', '/'))) {
            return true;
        }
        if (interfaces) {
            for (Class<?> implemented : type.getInterfaces()) {
                if (reachesRoot(implemented, depth + 1)) {
                    return true;
                }
            }
        }
        return reachesRoot(type.getSuperclass(), depth + 1);
    }

    /** What ByteBuddy's ignore matcher leaves out too: the JDK's and the agent's own classes. */
    private static boolean ignored(String internalName) {
        for (String prefix : IGNORED) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The verdicts for {@code loader}, softly held: the GC may drop them under memory pressure (then
     * a few class files are read again), and a loader that goes away takes its entry with it.
     */
    private Map<String, Boolean> knownFor(ClassLoader loader) {
        synchronized (verdicts) {
            SoftReference<Map<String, Boolean>> ref = verdicts.get(loader);
            Map<String, Boolean> known = ref == null ? null : ref.get();
            if (known == null) {
                known = new ConcurrentHashMap<>();
                verdicts.put(loader, new SoftReference<>(known));
            }
            return known;
        }
    }

    private static ClassReader header(byte[] classFile) {
        if (classFile == null) {
            return null;
        }
        try {
            return OpenedClassReader.of(classFile);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private boolean supertypesReachRoot(ClassReader header, ClassLoader loader, Map<String, Boolean> known, int depth) {
        if (reaches(header.getSuperName(), loader, known, depth)) {
            return true;
        }
        if (interfaces) {
            for (String implemented : header.getInterfaces()) {
                if (reaches(implemented, loader, known, depth)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code name} is a root or one of its supertypes is. */
    private boolean reaches(String name, ClassLoader loader, Map<String, Boolean> known, int depth) {
        if (name == null || name.startsWith("java/")) {
            // java.* types extend nothing of the host's (and java/lang/Object ends every chain)
            return false;
        }
        if (roots.contains(name)) {
            return true;
        }
        Boolean verdict = known.get(name);
        if (verdict != null) {
            return verdict;
        }
        ClassReader header = depth < MAX_DEPTH ? header(read(loader, name)) : null;
        verdict = header == null || supertypesReachRoot(header, loader, known, depth + 1);
        known.put(name, verdict);
        return verdict;
    }

    private static byte[] read(ClassLoader loader, String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = loader == null
                ? ClassLoader.getSystemResourceAsStream(resource)
                : loader.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
