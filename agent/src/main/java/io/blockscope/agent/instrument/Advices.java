package io.blockscope.agent.instrument;

import io.blockscope.agent.bootstrap.Bridge;
import net.bytebuddy.asm.Advice;

/**
 * The advice ByteBuddy inlines into the instrumented methods: one static call into the bootstrap
 * {@link Bridge} with constants and the profile's value, nothing else. The condition is the
 * constant {@code true} unless the profile gives a {@code when} value, so the JIT folds the test
 * away for most probes (likewise {@code counted} and {@code checkout}). Exceptions are suppressed
 * (and counted per probe by the exception handler {@link Instrumenter} attaches), so the host
 * never sees a failure of ours. Exit advice only: a method that throws counts nothing.
 */
final class Advices {

    private Advices() {}

    static final class BlockGet {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @TierId int tier,
                @ProbeCondition boolean when,
                @ProbeCounted boolean counted,
                @ProbeCheckout boolean checkout,
                @ProbeValue Object block) {
            // inlined advice evaluates a mapped value where the parameter is read: checkout only on a hit
            if (when) {
                if (block == null) {
                    Bridge.blockMiss(tier, counted);
                } else {
                    Bridge.blockHit(tier, counted, checkout, block);
                }
            }
        }
    }

    static final class BlockReturn {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @TierId int tier,
                @ProbeCondition boolean when,
                @ProbeMatched boolean matched,
                @ProbeValue Object block) {
            if (when) {
                Bridge.blockReturn(tier, matched, block);
            }
        }
    }

    static final class Copy {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @ProbeId int probe, @ComponentId int component, @ProbeCondition boolean when, @ProbeValue long bytes) {
            if (when) {
                Bridge.copied(probe, component, bytes);
            }
        }
    }

    static final class Occupancy {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@ProbeId int probe, @ProbeValue Object instance) {
            Bridge.instance(probe, instance);
        }
    }
}
