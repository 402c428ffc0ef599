package io.blockscope.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blockscope.agent.profile.ValueRef;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import org.junit.jupiter.api.Test;

/**
 * Boolean conditions compiled from profile values, woven into a real method: a count is true above
 * zero, and a value the method's types cannot answer takes the mapping's fallback when it has one.
 */
class ValueMappingTest {

    /** What the woven advice saw, in call order (public: the woven class is in another loader). */
    public static final class Recorded {
        public static final List<Boolean> SEEN = new ArrayList<>();
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Seen {}

    /** Stands for a cache entry: a reference count, and an interface that lacks it. */
    public interface Entry {}

    public static final class Counted implements Entry {
        private final int refs;

        public Counted(int refs) {
            this.refs = refs;
        }

        public int refCnt() {
            return refs;
        }
    }

    /** Stands for a cache: its lookup is declared to return the interface. */
    public static class Lookup implements Supplier<Object> {
        private final Object block;

        public Lookup(Object block) {
            this.block = block;
        }

        public Counted counted() {
            return (Counted) block;
        }

        public Entry entry() {
            return (Entry) block;
        }

        @Override
        public Object get() {
            counted();
            entry();
            return block;
        }
    }

    public static final class RecordAdvice {
        @Advice.OnMethodExit
        static void exit(@Seen boolean seen) {
            Recorded.SEEN.add(seen);
        }
    }

    @Test
    void aCountIsTrueAboveZero() throws Exception {
        Supplier<Object> none = woven("counted", "return.refCnt()", null, new Counted(0));
        Supplier<Object> one = woven("counted", "return.refCnt()", null, new Counted(1));
        Supplier<Object> many = woven("counted", "return.refCnt()", null, new Counted(Integer.MAX_VALUE));
        Recorded.SEEN.clear();
        none.get();
        one.get();
        many.get();
        assertEquals(List.of(false, true, true), Recorded.SEEN);
    }

    @Test
    void aValueTheDeclaredTypeCannotAnswerTakesTheFallback() throws Exception {
        Supplier<Object> lookup = woven("entry", "return.refCnt()", true, new Counted(0));
        Recorded.SEEN.clear();
        lookup.get();
        assertEquals(List.of(true), Recorded.SEEN, "Entry has no refCnt(): the fallback, whatever the object");
    }

    @Test
    void withoutAFallbackSuchAValueFailsTheClass() {
        assertThrows(IllegalStateException.class, () -> woven("entry", "return.refCnt()", null, new Counted(0)));
    }

    @SuppressWarnings("unchecked")
    private static Supplier<Object> woven(String method, String value, Boolean fallback, Object block)
            throws Exception {
        Class<?> type = new ByteBuddy()
                .redefine(Lookup.class)
                .visit(Advice.withCustomMapping()
                        .bind(Seen.class, new ValueMapping(ValueRef.parse(value), boolean.class, fallback))
                        .to(RecordAdvice.class)
                        .on(named(method)))
                .make()
                .load(
                        new ClassLoader(ValueMappingTest.class.getClassLoader()) {},
                        ClassLoadingStrategy.Default.CHILD_FIRST)
                .getLoaded();
        return (Supplier<Object>) type.getConstructor(Object.class).newInstance(block);
    }
}
