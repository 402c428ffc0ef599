package io.blockscope.agent.instrument;

import io.blockscope.agent.profile.Condition;
import io.blockscope.agent.profile.PoolSpec;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.ValueRef;
import java.lang.annotation.Annotation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.constant.IntegerConstant;

/**
 * The advice for a probe's kind, with the values that kind reads bound to its parameters. Ids the
 * transformer knows (probe, tier, component) come bound in {@code common}.
 */
final class KindAdvice implements ProbeSpec.Visitor<Advice> {
    private final Advice.WithCustomMapping common;
    /** The build's extension, which may add to every probe's condition; null: the profile's alone. */
    private final ProbeExtension extension;

    KindAdvice(Advice.WithCustomMapping common, ProbeExtension extension) {
        this.common = common;
        this.extension = extension;
    }

    @Override
    public Advice blockGet(ProbeSpec.BlockGet probe) {
        Advice.WithCustomMapping mapping = when(value(probe.value(), Object.class), probe.when());
        mapping = bind(mapping, ProbeCounted.class, probe.counted());
        // a checkout condition an older release of the target cannot answer (it lacks the method)
        // makes every hit a checkout there, as "true" would, instead of leaving the cache uninstrumented
        Condition checkout = probe.checkout();
        mapping = checkout.value() == null
                ? mapping.bind(ProbeCheckout.class, checkout.constant())
                : mapping.bind(ProbeCheckout.class, new ValueMapping(checkout.value(), boolean.class, true));
        return mapping.to(probe.pooledBuffers() ? Advices.BufferTake.class : Advices.BlockGet.class);
    }

    @Override
    public Advice blockReturn(ProbeSpec.BlockReturn probe) {
        Advice.WithCustomMapping mapping = when(value(probe.value(), Object.class), probe.when());
        return mapping.bind(ProbeMatched.class, probe.returnsCheckedOut())
                .to(probe.pooledBuffers() ? Advices.BufferReturn.class : Advices.BlockReturn.class);
    }

    @Override
    public Advice copy(ProbeSpec.Copy probe) {
        return when(value(probe.value(), long.class), probe.when()).to(Advices.Copy.class);
    }

    @Override
    public Advice copyDoor(ProbeSpec.CopyDoor probe) {
        return common.bind(DoorNamesReceiver.class, probe.namesReceiver()).to(Advices.CopyDoor.class);
    }

    @Override
    public Advice occupancy(ProbeSpec.Occupancy probe) {
        return when(value(probe.value(), Object.class), Condition.ALWAYS).to(Advices.Occupancy.class);
    }

    @Override
    public Advice heapFallback(ProbeSpec.HeapFallback probe) {
        Advice.WithCustomMapping mapping = when(value(probe.value(), long.class), probe.when());
        PoolSpec pool = probe.pool();
        mapping = pool.pooled() == null
                ? mapping.bind(PoolEnabled.class, true)
                : mapping.bind(PoolEnabled.class, new ValueMapping(pool.pooled(), boolean.class));
        mapping = pool.minPooledSize() == null
                ? mapping.bind(MinPooledSize.class, 0L)
                : mapping.bind(MinPooledSize.class, new ValueMapping(pool.minPooledSize(), long.class));
        return mapping.to(Advices.HeapFallback.class);
    }

    @Override
    public Advice bufferTouch(ProbeSpec.BufferTouch probe) {
        return when(value(probe.value(), Object.class), probe.when()).to(Advices.BufferTouch.class);
    }

    @Override
    public Advice receiver(ProbeSpec.Receiver probe) {
        return common.to(Advices.Receiver.class);
    }

    @Override
    public Advice context(ProbeSpec.ContextProbe probe) {
        switch (probe.role()) {
            case CALL:
                return value(probe.value(), Object.class).to(Advices.ContextCall.class);
            case REGION_START:
                return region(value(probe.value(), Object.class), probe).to(Advices.ContextRegionStart.class);
            case REGION_END:
                return common.to(Advices.ContextRegionEnd.class);
            case SYSTEM:
                return region(value(probe.value(), Object.class), probe)
                        .bind(SystemUser.class, probe.systemUser())
                        .to(Advices.ContextSystem.class);
            default:
                throw new IllegalStateException(probe.role().toString());
        }
    }

    /** The probe's region value, or null where the profile names none. */
    private static Advice.WithCustomMapping region(Advice.WithCustomMapping mapping, ProbeSpec.ContextProbe probe) {
        return probe.region() == null
                ? mapping.bind(ProbeRegion.class, (Object) null)
                : mapping.bind(ProbeRegion.class, new ValueMapping(probe.region(), Object.class));
    }

    private Advice.WithCustomMapping value(ValueRef value, Class<?> type) {
        return common.bind(ProbeValue.class, new ValueMapping(value, type));
    }

    /** The probe's condition, as the extension (if any) extends it. */
    private Advice.WithCustomMapping when(Advice.WithCustomMapping mapping, Condition condition) {
        if (extension == null) {
            return bind(mapping, ProbeCondition.class, condition);
        }
        Advice.OffsetMapping profile = condition.value() == null
                ? (type, method, assigner, arguments, sort) -> new Advice.OffsetMapping.Target.ForStackManipulation(
                        IntegerConstant.forValue(condition.constant()))
                : new ValueMapping(condition.value(), boolean.class);
        return mapping.bind(ProbeCondition.class, extension.condition(profile));
    }

    /** A constant folds away in the JIT; a value is read at the method. */
    private static Advice.WithCustomMapping bind(
            Advice.WithCustomMapping mapping, Class<? extends Annotation> annotation, Condition condition) {
        return condition.value() == null
                ? mapping.bind(annotation, condition.constant())
                : mapping.bind(annotation, new ValueMapping(condition.value(), boolean.class));
    }
}
