package io.blockscope.agent.diagnostics;

import io.blockscope.agent.diagnostics.bootstrap.RecordingGate;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.implementation.bytecode.member.FieldAccess;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * A probe's condition AND {@link RecordingGate#open}: the profile's condition, then one volatile
 * read of the gate, combined with {@code iand}. Both are evaluated; a closed gate makes the advice
 * skip its call into the bridge.
 */
final class GatedCondition implements Advice.OffsetMapping {

    private final Advice.OffsetMapping profileCondition;

    GatedCondition(Advice.OffsetMapping profileCondition) {
        this.profileCondition = profileCondition;
    }

    @Override
    public Target resolve(
            TypeDescription instrumentedType,
            MethodDescription instrumentedMethod,
            Assigner assigner,
            Advice.ArgumentHandler argumentHandler,
            Sort sort) {
        StackManipulation condition = profileCondition
                .resolve(instrumentedType, instrumentedMethod, assigner, argumentHandler, sort)
                .resolveRead();
        StackManipulation gate = FieldAccess.forField(gateField()).read();
        return new Target.ForStackManipulation(new StackManipulation.Compound(condition, gate, And.INSTANCE));
    }

    private static FieldDescription.InDefinedShape gateField() {
        try {
            return new FieldDescription.ForLoadedField(RecordingGate.class.getField("open"));
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code iand}: two booleans (ints) in, one out. */
    private enum And implements StackManipulation {
        INSTANCE;

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Size apply(MethodVisitor methodVisitor, net.bytebuddy.implementation.Implementation.Context context) {
            methodVisitor.visitInsn(Opcodes.IAND);
            return new Size(-1, 0);
        }
    }
}
