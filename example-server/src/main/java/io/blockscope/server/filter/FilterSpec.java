package io.blockscope.server.filter;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A parsed, validated filter specification: makes a fresh {@link Filter} per scan.
 *
 * <p>Accepted forms:
 * <ul>
 *   <li>{@code none}: keep everything (the default);</li>
 *   <li>{@code all}: read everything, return nothing ({@link FilterAll});</li>
 *   <li>{@code <N>pct}, e.g. {@code 10pct}: keep about N% of rows ({@link ValueSampleFilter});</li>
 *   <li>{@code qualifier:<q1>,<q2>,...}: keep only those columns ({@link QualifierFilter});</li>
 *   <li>{@code class:<fully.qualified.Name>}: a {@link Filter} implementation with a public
 *       no-argument constructor on the server's class path.</li>
 * </ul>
 * Parsing does all the checking up front (class found, right type, constructible), so a bad spec is
 * rejected with a message before any scan starts.
 */
public final class FilterSpec {

    public static final String ACCEPTED =
            "none, all, <N>pct (e.g. 10pct), qualifier:<q1>,<q2>,..., class:<fully.qualified.Name>";

    private static final FilterSpec NONE = new FilterSpec("none", null);

    private final String text;
    private final Supplier<Filter> factory;

    private FilterSpec(String text, Supplier<Filter> factory) {
        this.text = text;
        this.factory = factory;
    }

    public static FilterSpec none() {
        return NONE;
    }

    /**
     * Parses a spec the operator wrote (PE, tests): any filter class on the class path may be named.
     *
     * @throws IllegalArgumentException naming what is wrong and the accepted forms
     */
    public static FilterSpec parse(String spec, ClassLoader loader) {
        return parse(spec, loader, FilterClasses.ANY);
    }

    /**
     * Parses a spec. Class specs must be allowed by {@code classes} (checked before anything is
     * loaded) and are loaded with {@code loader}.
     *
     * @throws FilterNotAllowedException for a class: spec {@code classes} does not allow
     * @throws IllegalArgumentException naming what is wrong and the accepted forms
     */
    public static FilterSpec parse(String spec, ClassLoader loader, FilterClasses classes) {
        if (spec == null || spec.isEmpty() || spec.equals("none")) {
            return NONE;
        }
        if (spec.equals("all")) {
            return new FilterSpec(spec, FilterAll::new);
        }
        if (spec.endsWith("pct")) {
            int percent = parsePercent(spec);
            return new FilterSpec(spec, () -> new ValueSampleFilter(percent));
        }
        if (spec.startsWith("qualifier:")) {
            List<byte[]> qualifiers = parseQualifiers(spec.substring("qualifier:".length()));
            return new FilterSpec(spec, () -> new QualifierFilter(qualifiers));
        }
        if (spec.startsWith("class:")) {
            String className = spec.substring("class:".length());
            if (!classes.allows(className)) {
                throw new FilterNotAllowedException(classes.refusal(className));
            }
            Constructor<? extends Filter> constructor = constructorOf(className, loader);
            // Instantiate once now so a throwing constructor is reported as a bad spec, not a 500 later.
            newInstance(constructor);
            return new FilterSpec(spec, () -> newInstance(constructor));
        }
        throw new IllegalArgumentException("unknown filter '" + spec + "'; accepted: " + ACCEPTED);
    }

    /** True when this spec filters nothing. */
    public boolean isNone() {
        return factory == null;
    }

    /** A new filter for one scan, or null for {@code none}. */
    public Filter newFilter() {
        return factory == null ? null : factory.get();
    }

    @Override
    public String toString() {
        return text;
    }

    private static int parsePercent(String spec) {
        String digits = spec.substring(0, spec.length() - "pct".length());
        int percent;
        try {
            percent = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "bad filter '" + spec + "': expected <N>pct with N in 1..100, e.g. 10pct");
        }
        if (percent < 1 || percent > 100) {
            throw new IllegalArgumentException("bad filter '" + spec + "': the percentage must be 1..100");
        }
        return percent;
    }

    private static List<byte[]> parseQualifiers(String list) {
        List<byte[]> qualifiers = new ArrayList<>();
        for (String q : list.split(",", -1)) {
            if (q.isEmpty()) {
                throw new IllegalArgumentException("bad filter 'qualifier:" + list
                        + "': qualifiers must be non-empty and comma-separated, e.g. qualifier:0,3");
            }
            qualifiers.add(q.getBytes(StandardCharsets.UTF_8));
        }
        return qualifiers;
    }

    private static Constructor<? extends Filter> constructorOf(String className, ClassLoader loader) {
        if (className.isEmpty()) {
            throw new IllegalArgumentException("bad filter 'class:': name a class, e.g. class:com.example.MyFilter");
        }
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("filter class '" + className
                    + "' is not on the server's class path; add its jar to the server's -cp");
        }
        if (!Filter.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(
                    "filter class '" + className + "' does not implement " + Filter.class.getName());
        }
        if (Modifier.isAbstract(type.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
            throw new IllegalArgumentException("filter class '" + className + "' must be a public, concrete class");
        }
        try {
            return type.asSubclass(Filter.class).getConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(
                    "filter class '" + className + "' needs a public no-argument constructor");
        }
    }

    private static Filter newInstance(Constructor<? extends Filter> constructor) {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(
                    "filter class '" + constructor.getDeclaringClass().getName() + "' failed in its constructor: "
                            + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException(
                    "filter class '" + constructor.getDeclaringClass().getName() + "' cannot be instantiated: " + e);
        }
    }
}
