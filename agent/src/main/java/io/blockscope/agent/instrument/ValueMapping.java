package io.blockscope.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.blockscope.agent.profile.ValueRef;
import io.blockscope.exporter.Log;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.Addition;
import net.bytebuddy.implementation.bytecode.ShiftRight;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.implementation.bytecode.collection.ArrayLength;
import net.bytebuddy.implementation.bytecode.constant.IntegerConstant;
import net.bytebuddy.implementation.bytecode.member.FieldAccess;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.implementation.bytecode.member.MethodVariableAccess;

/**
 * Compiles a profile's {@link ValueRef} into the bytecode that loads it inside the instrumented
 * method: a local variable load, then direct calls of the accessors (field reads, an array length), then a
 * widening or boxing-free assignment to the advice parameter. Nothing is looked up at run time.
 *
 * <p>A value that does not fit the instrumented method (an argument it lacks, an accessor that does
 * not exist or is not visible from the instrumented class, a type that cannot become the advice
 * parameter's type) fails the transformation of that class with a message naming all three, unless
 * the mapping was given a fallback: then the fallback constant stands in for it, and the mismatch is
 * logged at INFO (a condition that only newer releases of a target can answer).
 *
 * <p>An {@code int} value for a {@code boolean} parameter is true when above zero (a count, such as
 * a reference count).
 */
final class ValueMapping implements Advice.OffsetMapping {

    private final ValueRef value;
    private final TypeDescription.Generic target;
    /** The constant used where the value does not fit the method; null: such a value fails the class. */
    private final Boolean fallback;

    ValueMapping(ValueRef value, Class<?> target) {
        this(value, target, null);
    }

    ValueMapping(ValueRef value, Class<?> target, Boolean fallback) {
        this.value = value;
        this.target = TypeDescription.ForLoadedType.of(target).asGenericType();
        this.fallback = fallback;
    }

    @Override
    public Target resolve(
            TypeDescription instrumentedType,
            MethodDescription instrumentedMethod,
            Assigner assigner,
            Advice.ArgumentHandler argumentHandler,
            Sort sort) {
        try {
            return compile(instrumentedType, instrumentedMethod, assigner, argumentHandler);
        } catch (IllegalStateException e) {
            if (fallback == null) {
                throw e;
            }
            Log.info(e.getMessage() + "; using " + fallback + " there instead");
            return new Target.ForStackManipulation(IntegerConstant.forValue(fallback));
        }
    }

    private Target compile(
            TypeDescription instrumentedType,
            MethodDescription instrumentedMethod,
            Assigner assigner,
            Advice.ArgumentHandler argumentHandler) {
        List<StackManipulation> code = new ArrayList<>();
        TypeDescription.Generic type;
        switch (value.origin()) {
            case THIS:
                if (instrumentedMethod.isStatic()) {
                    throw fail(instrumentedMethod, "the method is static, it has no 'this'");
                }
                type = instrumentedType.asGenericType();
                code.add(MethodVariableAccess.loadThis());
                break;
            case ARGUMENT:
                if (value.argument() >= instrumentedMethod.getParameters().size()) {
                    throw fail(
                            instrumentedMethod,
                            "the method has only "
                                    + instrumentedMethod.getParameters().size() + " parameters");
                }
                ParameterDescription parameter =
                        instrumentedMethod.getParameters().get(value.argument());
                type = parameter.getType();
                code.add(MethodVariableAccess.of(type).loadFrom(argumentHandler.argument(parameter.getOffset())));
                break;
            case RETURN:
                type = instrumentedMethod.getReturnType();
                if (type.represents(void.class) || instrumentedMethod.isConstructor()) {
                    throw fail(instrumentedMethod, "the method returns nothing");
                }
                code.add(MethodVariableAccess.of(type).loadFrom(argumentHandler.returned()));
                break;
            default:
                throw new IllegalStateException(value.origin().toString());
        }
        for (ValueRef.Step step : value.steps()) {
            if (step.arrayLength()) {
                if (!type.isArray()) {
                    throw fail(
                            instrumentedMethod,
                            "'length' needs an array, but the value is a "
                                    + type.asErasure().getActualName());
                }
                code.add(ArrayLength.INSTANCE);
                type = TypeDescription.ForLoadedType.of(int.class).asGenericType();
            } else if (step.field()) {
                FieldDescription field = field(type.asErasure(), step.name(), instrumentedMethod);
                if (!field.isVisibleTo(instrumentedType)) {
                    throw fail(instrumentedMethod, step + " is not visible from " + instrumentedType.getActualName());
                }
                code.add(FieldAccess.forField(field.asDefined()).read());
                type = field.getType();
            } else {
                MethodDescription accessor = accessor(type.asErasure(), step.name(), instrumentedMethod);
                if (!accessor.isVisibleTo(instrumentedType)) {
                    throw fail(instrumentedMethod, step + " is not visible from " + instrumentedType.getActualName());
                }
                code.add(MethodInvocation.invoke(accessor.asDefined()).virtual(type.asErasure()));
                type = accessor.getReturnType();
            }
        }
        if (target.represents(boolean.class) && type.represents(int.class)) {
            // above zero, without a branch: for 0 <= n, (n + MAX_VALUE) has its sign bit set exactly when n >= 1
            code.add(IntegerConstant.forValue(Integer.MAX_VALUE));
            code.add(Addition.INTEGER);
            code.add(IntegerConstant.forValue(31));
            code.add(ShiftRight.INTEGER.toUnsigned());
            return new Target.ForStackManipulation(new StackManipulation.Compound(code));
        }
        StackManipulation assignment = assigner.assign(type, target, Assigner.Typing.STATIC);
        if (!assignment.isValid()) {
            throw fail(
                    instrumentedMethod,
                    "a " + type.asErasure().getActualName() + " cannot be used as "
                            + target.asErasure().getActualName());
        }
        code.add(assignment);
        return new Target.ForStackManipulation(new StackManipulation.Compound(code));
    }

    /** The no-argument instance method {@code name} of {@code type}, its superclasses or interfaces. */
    private MethodDescription accessor(TypeDescription type, String name, MethodDescription instrumentedMethod) {
        Deque<TypeDefinition> pending = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        pending.add(type);
        while (!pending.isEmpty()) {
            TypeDefinition current = pending.poll();
            if (!seen.add(current.asErasure().getName())) {
                continue;
            }
            MethodList<?> found = current.getDeclaredMethods()
                    .filter(named(name).and(takesArguments(0)).and(not(isStatic())));
            if (!found.isEmpty()) {
                return found.getOnly();
            }
            if (current.getSuperClass() != null) {
                pending.add(current.getSuperClass());
            }
            current.getInterfaces().forEach(pending::add);
        }
        throw fail(instrumentedMethod, type.getActualName() + " has no method " + name + "()");
    }

    /** The instance field {@code name} of {@code type} or its superclasses. */
    private FieldDescription field(TypeDescription type, String name, MethodDescription instrumentedMethod) {
        for (TypeDefinition current = type; current != null; current = current.getSuperClass()) {
            FieldList<?> found = current.getDeclaredFields().filter(named(name).and(not(isStatic())));
            if (!found.isEmpty()) {
                return found.getOnly();
            }
        }
        throw fail(instrumentedMethod, type.getActualName() + " has no field " + name);
    }

    private IllegalStateException fail(MethodDescription method, String why) {
        return new IllegalStateException("value '" + value + "' does not fit "
                + method.getDeclaringType().getActualName() + "." + method.getInternalName() + ": " + why);
    }
}
