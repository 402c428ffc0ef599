package io.blockscope.agent.instrument;

import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Copies;
import io.blockscope.agent.bootstrap.Instances;
import net.bytebuddy.asm.Advice;

/**
 * The advice ByteBuddy inlines into the instrumented methods: one static call into the bootstrap
 * entry points ({@link Checkouts}, {@link Copies}, {@link Instances}) with constants and the
 * profile's value, nothing else. The condition is the
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
                    Checkouts.blockMiss(tier, counted);
                } else {
                    Checkouts.blockHit(tier, counted, checkout, block);
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
                Checkouts.blockReturn(tier, matched, block);
            }
        }
    }

    /** A pool's buffer take: held with its take time as well as counted (see {@code Checkouts.bufferTake}). */
    static final class BufferTake {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @TierId int tier,
                @ProbeCondition boolean when,
                @ProbeCounted boolean counted,
                @ProbeValue Object buffer) {
            if (when) {
                if (buffer == null) {
                    Checkouts.blockMiss(tier, counted); // the pool is spent: the heap fallback counts it
                } else {
                    Checkouts.bufferTake(tier, counted, buffer);
                }
            }
        }
    }

    static final class BufferReturn {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @TierId int tier,
                @ProbeCondition boolean when,
                @ProbeMatched boolean matched,
                @ProbeValue Object buffer) {
            if (when) {
                Checkouts.bufferReturn(tier, matched, buffer);
            }
        }
    }

    /** A live holder passed by its block: the pool buffers it lives in restart their age. */
    static final class BufferTouch {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@ProbeCondition boolean when, @ProbeValue Object holder) throws Throwable {
            if (when) {
                Checkouts.bufferTouch(holder);
            }
        }
    }

    static final class Copy {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @ProbeId int probe, @ComponentId int component, @ProbeCondition boolean when, @ProbeValue long bytes) {
            // the component is a constant: the JIT keeps one branch
            if (when) {
                if (component < 0) {
                    Copies.copiedInDoor(probe, bytes);
                } else {
                    Copies.copied(probe, component, bytes);
                }
            }
        }
    }

    /**
     * Marks the calls inside a copy door: the outermost door on the thread sets the component that
     * copies inside it count under, and a door that names its receiver sets the class a sampled
     * copy's site is named with. Array loads and stores in the thread's call slot; a boxed component
     * is one of {@code Integer}'s cached values, so nothing is allocated.
     */
    static final class CopyDoor {
        // ByteBuddy carries @Advice.Local values from enter to exit: written here, read there
        @SuppressWarnings("UnusedVariable")
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @ComponentId int component,
                @DoorNamesReceiver boolean namesReceiver,
                @Advice.This(optional = true) Object self,
                @Advice.Local("blockscopeSlot") Object[] slot,
                @Advice.Local("blockscopeOuter") boolean outer,
                @Advice.Local("blockscopeReceiver") Object previousReceiver) {
            slot = Copies.callSlot();
            if (component >= 0 && slot[Copies.DOOR_COMPONENT] == null) {
                slot[Copies.DOOR_COMPONENT] = component;
                outer = true;
            }
            if (namesReceiver) {
                previousReceiver = slot[Copies.DOOR_RECEIVER];
                slot[Copies.DOOR_RECEIVER] = self == null ? null : self.getClass();
            }
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(
                @DoorNamesReceiver boolean namesReceiver,
                @Advice.Local("blockscopeSlot") Object[] slot,
                @Advice.Local("blockscopeOuter") boolean outer,
                @Advice.Local("blockscopeReceiver") Object previousReceiver) {
            if (slot != null) {
                if (outer) {
                    slot[Copies.DOOR_COMPONENT] = null;
                }
                if (namesReceiver) {
                    slot[Copies.DOOR_RECEIVER] = previousReceiver;
                }
            }
        }
    }

    /**
     * Records the receiver of a watched inherited method for the duration of the call, so a copy or
     * checkout sampled inside it is named after the receiver's class. Two array stores on entry and
     * exit, in a slot the thread allocated once.
     */
    static final class Receiver {
        // ByteBuddy carries @Advice.Local values from enter to exit: written here, read there
        @SuppressWarnings("UnusedVariable")
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @Advice.This(optional = true) Object self,
                @Advice.Origin("#m") String method,
                @Advice.Local("blockscopeReceiver") Object previousReceiver,
                @Advice.Local("blockscopeMethod") Object previousMethod) {
            Object[] slot = Copies.callSlot();
            previousReceiver = slot[Copies.RECEIVER];
            previousMethod = slot[Copies.RECEIVER_METHOD];
            slot[Copies.RECEIVER] = self == null ? null : self.getClass();
            slot[Copies.RECEIVER_METHOD] = method;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(
                @Advice.Local("blockscopeReceiver") Object previousReceiver,
                @Advice.Local("blockscopeMethod") Object previousMethod) {
            Object[] slot = Copies.callSlot();
            slot[Copies.RECEIVER] = previousReceiver;
            slot[Copies.RECEIVER_METHOD] = previousMethod;
        }
    }

    /** A buffer allocator's heap allocation; the allocator is captured for scrape-time reads. */
    static final class HeapFallback {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(
                @ProbeId int probe,
                @ProbeCondition boolean when,
                @ProbeValue long bytes,
                @PoolEnabled boolean pooled,
                @MinPooledSize long minPooledSize,
                @Advice.This(optional = true) Object allocator) {
            if (when) {
                Instances.heapFallback(probe, bytes, pooled, minPooledSize, allocator);
            }
        }
    }

    /** Remembers an instance: an occupancy probe's cache, a heap-fallback probe's allocator when built. */
    static final class Occupancy {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@ProbeId int probe, @ProbeCondition boolean when, @ProbeValue Object instance) {
            if (when) {
                Instances.instance(probe, instance);
            }
        }
    }

    /**
     * An RPC call on this thread: its user, no table until a region operation names one; what was
     * there before comes back at the end, so a pooled thread's next call starts clean.
     */
    static final class ContextCall {
        // ByteBuddy carries @Advice.Local values from enter to exit: written here, read there
        @SuppressWarnings("UnusedVariable")
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @ProbeValue Object call,
                @Advice.Local("blockscopeContext") long saved,
                @Advice.Local("blockscopeRegion") Object region) {
            region = Context.region();
            saved = Context.callStart(call);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(
                @Advice.Local("blockscopeContext") long saved, @Advice.Local("blockscopeRegion") Object region) {
            Context.restore(saved, region);
        }
    }

    /** A region operation started (exit advice: only one that did not throw) on the value's table. */
    static final class ContextRegionStart {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@ProbeValue Object table, @ProbeRegion Object region) {
            Context.regionStart(table, region);
        }
    }

    /** A region operation ended, however its end went. */
    static final class ContextRegionEnd {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            Context.regionEnd();
        }
    }

    /** Work the server does for itself (a compaction, a flush) on the value's table. */
    static final class ContextSystem {
        // ByteBuddy carries @Advice.Local values from enter to exit: written here, read there
        @SuppressWarnings("UnusedVariable")
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @ProbeValue Object table,
                @ProbeRegion Object region,
                @SystemUser int user,
                @Advice.Local("blockscopeContext") long saved,
                @Advice.Local("blockscopeRegion") Object outer) {
            outer = Context.region();
            saved = Context.systemStart(table, region, user);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(
                @Advice.Local("blockscopeContext") long saved, @Advice.Local("blockscopeRegion") Object outer) {
            Context.restore(saved, outer);
        }
    }
}
