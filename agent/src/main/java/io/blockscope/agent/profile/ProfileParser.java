package io.blockscope.agent.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.jr.ob.JSON;
import io.blockscope.agent.bootstrap.Counters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads a profile from JSON (comments allowed). Strict on purpose: an unknown field or a value of
 * the wrong shape is an error naming the probe, the field and what is accepted, because a typo in
 * a profile otherwise shows up only as a probe that silently never fires.
 *
 * <p>jackson-jr reads the text into plain maps, lists and strings: a profile is a small tree, and
 * jackson-databind (1.7 MB in the agent jar) did nothing more for it.
 */
public final class ProfileParser {

    /** Comments and trailing commas, as profiles have always allowed; a key given twice is an error. */
    private static final JSON READER = JSON.builder(JsonFactory.builder()
                    .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
                    .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
                    .build())
            .build();

    private static final Set<String> PROFILE_FIELDS = Set.of("name", "description", "detect", "siteSkip", "probes");
    private static final Set<String> COMMON_FIELDS = Set.of("name", "kind", "types", "methods", "alternatives");
    /** The fields each kind reads besides the common ones; another kind's field is a mistake. */
    private static final Map<ProbeKind, Set<String>> KIND_FIELDS = Map.ofEntries(
            Map.entry(ProbeKind.BLOCK_GET, Set.of("value", "when", "counted", "checkout", "tier")),
            Map.entry(ProbeKind.BLOCK_RETURN, Set.of("value", "when", "returns", "tier")),
            Map.entry(ProbeKind.BUFFER_TAKE, Set.of("value", "when", "tier")),
            Map.entry(ProbeKind.BUFFER_RETURN, Set.of("value", "when", "tier")),
            Map.entry(ProbeKind.BUFFER_TOUCH, Set.of("value", "when", "buffer")),
            Map.entry(ProbeKind.COPY, Set.of("value", "when", "component")),
            Map.entry(ProbeKind.COPY_DOOR, Set.of("component", "names", "design")),
            Map.entry(ProbeKind.OCCUPANCY, Set.of("value", "occupancy")),
            Map.entry(ProbeKind.RECEIVER, Set.of()),
            Map.entry(ProbeKind.HEAP_FALLBACK, Set.of("value", "when", "pool")),
            Map.entry(ProbeKind.CONTEXT, Set.of("value", "role", "user", "region")));

    private static final Set<String> PROBE_FIELDS = Stream.concat(
                    COMMON_FIELDS.stream(), KIND_FIELDS.values().stream().flatMap(Set::stream))
            .collect(Collectors.toSet());
    private static final Set<String> OCCUPANCY_FIELDS =
            Set.of("capacity", "used", "wasted", "allocationFailures", "readPathMode", "sizeClasses", "sizeClass");
    private static final Set<String> READ_PATH_MODE_FIELDS = Set.of("value", "labels");
    private static final Set<String> SIZE_CLASS_FIELDS =
            Set.of("itemSize", "usedSlots", "freeSlots", "usedBytes", "freeBytes");
    private static final Set<String> POOL_FIELDS = Set.of(
            "pooled",
            "minPooledSize",
            "bufferSize",
            "maxBuffers",
            "createdBuffers",
            "freeBuffers",
            "heapBytes",
            "poolBytes");
    private static final String LABEL = "[a-z0-9][a-z0-9_-]*";

    private ProfileParser() {}

    /** Parses a profile; {@code source} names it in error messages (a file path or a built-in name). */
    public static Profile parse(String json, String source) {
        Object tree;
        try {
            tree = READER.anyFrom(json);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("profile " + source + " is not valid JSON: " + e.getOriginalMessage()
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()));
        } catch (IOException e) {
            // reading a String does no I/O; kept apart so a real cause is not reported as bad JSON
            throw new IllegalStateException("profile " + source + " could not be read", e);
        }
        if (!(tree instanceof Map)) {
            throw new IllegalArgumentException("profile " + source + " must be a JSON object");
        }
        Map<?, ?> root = (Map<?, ?>) tree;
        String where = "profile " + source;
        checkFields(root, PROFILE_FIELDS, where);
        String name = label(text(root, "name", where, true), where + ": name");
        String description = text(root, "description", where, false);
        List<String> detect = strings(root, "detect", where);
        List<String> siteSkip = strings(root, "siteSkip", where);
        Object probesNode = root.get("probes");
        if (!(probesNode instanceof List) || ((List<?>) probesNode).isEmpty()) {
            throw new IllegalArgumentException(where + ": probes must be a non-empty array");
        }
        List<ProbeSpec> probes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object node : (List<?>) probesNode) {
            ProbeSpec probe = probe(node, where);
            if (!names.add(probe.name())) {
                throw new IllegalArgumentException(where + ": probe name '" + probe.name() + "' is used twice");
            }
            probes.add(probe);
        }
        if (probes.size() > Counters.MAX_PROBES) {
            throw new IllegalArgumentException(
                    where + ": " + probes.size() + " probes; at most " + Counters.MAX_PROBES);
        }
        for (ProbeSpec probe : probes) {
            for (String alternative : probe.alternatives()) {
                if (!names.contains(alternative) || alternative.equals(probe.name())) {
                    throw new IllegalArgumentException(where + ": probe '" + probe.name() + "': alternatives names '"
                            + alternative + "', which is not another probe of this profile (probes: " + names + ")");
                }
            }
        }
        Profile profile = new Profile(name, description, detect, siteSkip, probes);
        if (profile.tiers().size() > Counters.MAX_TIERS) {
            throw new IllegalArgumentException(where + ": " + profile.tiers().size() + " tiers " + profile.tiers()
                    + "; at most " + Counters.MAX_TIERS);
        }
        for (ProbeSpec probe : probes) {
            if (probe instanceof ProbeSpec.BlockProbe && !((ProbeSpec.BlockProbe) probe).pooledBuffers()) {
                ByName<String> tiers = ((ProbeSpec.BlockProbe) probe).tiers();
                for (String tier : profile.bufferTiers()) {
                    if (tiers.byName().containsValue(tier) || tier.equals(tiers.fallback())) {
                        throw new IllegalArgumentException(where + ": tier '" + tier + "' is used by probe '"
                                + probe.name() + "' (blocks) and by a buffer-take or buffer-return probe: a tier"
                                + " is a cache's or a pool's, not both");
                    }
                }
            }
        }
        return profile;
    }

    private static ProbeSpec probe(Object element, String profileWhere) {
        if (!(element instanceof Map)) {
            throw new IllegalArgumentException(profileWhere + ": every probe must be a JSON object");
        }
        Map<?, ?> node = (Map<?, ?>) element;
        String name = text(node, "name", profileWhere + ": a probe", true);
        String where = profileWhere + ": probe '" + name + "'";
        label(name, where + ": name");
        checkFields(node, PROBE_FIELDS, where);
        ProbeKind kind = parsed(text(node, "kind", where, true), ProbeKind::of, where + ": kind");
        for (Object field : node.keySet()) {
            if (!COMMON_FIELDS.contains(field) && !KIND_FIELDS.get(kind).contains(field)) {
                throw new IllegalArgumentException(
                        where + ": field '" + field + "' does not apply to a " + kind.label() + " probe");
            }
        }
        List<TypeSpec> types = new ArrayList<>();
        for (String type : strings(node, "types", where)) {
            types.add(parsed(type, TypeSpec::parse, where + ": types"));
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException(where + ": types must list at least one class");
        }
        List<MethodSpec> methods = new ArrayList<>();
        for (String method : strings(node, "methods", where)) {
            methods.add(parsed(method, MethodSpec::parse, where + ": methods"));
        }
        if (methods.isEmpty()) {
            throw new IllegalArgumentException(where + ": methods must list at least one method");
        }
        ProbeSpec.Target target = new ProbeSpec.Target(name, types, methods, strings(node, "alternatives", where));
        switch (kind) {
            case BLOCK_GET:
                return new ProbeSpec.BlockGet(
                        target,
                        tiers(node, kind, where),
                        valueOr(node, where, "return"),
                        condition(node, "when", where),
                        condition(node, "counted", where),
                        checkout(node, where));
            case BLOCK_RETURN:
                return new ProbeSpec.BlockReturn(
                        target,
                        tiers(node, kind, where),
                        required(node, kind, where, "the block given back, e.g. arg1 or this"),
                        condition(node, "when", where),
                        returnsCheckedOut(node, where));
            case BUFFER_TAKE:
                // a take that finds no free buffer returns null: not counted (a miss of an uncounted lookup)
                return new ProbeSpec.BlockGet(
                        target,
                        tiers(node, kind, where),
                        required(node, kind, where, "the buffer taken, e.g. return"),
                        condition(node, "when", where),
                        Condition.NEVER,
                        Condition.ALWAYS,
                        true);
            case BUFFER_RETURN:
                // matched like checked-out blocks: a buffer taken before the agent started is not counted
                return new ProbeSpec.BlockReturn(
                        target,
                        tiers(node, kind, where),
                        required(node, kind, where, "the buffer given back, e.g. arg0"),
                        condition(node, "when", where),
                        true,
                        true);
            case BUFFER_TOUCH:
                List<String> bufferFields = strings(node, "buffer", where);
                if (bufferFields.isEmpty()) {
                    throw new IllegalArgumentException(where + ": buffer must name the holder's field(s) that keep"
                            + " its buffer, e.g. [\"bufWithoutChecksum\", \"buf\"]");
                }
                return new ProbeSpec.BufferTouch(
                        target,
                        required(node, kind, where, "the holder, e.g. this.curBlock"),
                        condition(node, "when", where),
                        bufferFields);
            case COPY:
                return new ProbeSpec.Copy(
                        target,
                        required(node, kind, where, "the bytes copied, e.g. return.length"),
                        condition(node, "when", where),
                        "door".equals(node.get("component"))
                                ? new ByName<>(Map.of(), null)
                                : components(node, methods, where));
            case COPY_DOOR:
                boolean namesReceiver = namesReceiver(node, where);
                Object design = node.get("design");
                if (design != null) {
                    if (node.get("component") != null || namesReceiver) {
                        throw new IllegalArgumentException(where + ": a door by design counts under its operation:"
                                + " no component or names with design");
                    }
                    return new ProbeSpec.CopyDoor(
                            target,
                            new ByName<>(Map.of(), null),
                            false,
                            parsed(String.valueOf(design), DesignedCopy::of, where + ": design"));
                }
                return new ProbeSpec.CopyDoor(target, doorComponents(node, methods, where), namesReceiver, null);
            case OCCUPANCY:
                return new ProbeSpec.Occupancy(
                        target, valueOr(node, where, "this"), occupancy(node.get("occupancy"), where));
            case RECEIVER:
                return new ProbeSpec.Receiver(target);
            case HEAP_FALLBACK:
                return new ProbeSpec.HeapFallback(
                        target,
                        required(node, kind, where, "the bytes allocated on the heap, e.g. arg0"),
                        condition(node, "when", where),
                        pool(node.get("pool"), where));
            case CONTEXT:
                return context(node, target, where);
            default:
                throw new IllegalStateException("unknown probe kind " + kind);
        }
    }

    /** A context probe: its role, the value the role reads, a system probe's user, and the region. */
    private static ProbeSpec context(Map<?, ?> node, ProbeSpec.Target target, String where) {
        ProbeSpec.ContextProbe.Role role =
                parsed(text(node, "role", where, true), ProbeSpec.ContextProbe.Role::of, where + ": role");
        ValueRef value = value(node, "value", where);
        if ((value == null) != (role == ProbeSpec.ContextProbe.Role.REGION_END)) {
            throw new IllegalArgumentException(where + ": a " + role.label() + " context probe "
                    + (value == null ? "needs a value (the call, or the table)" : "takes no value"));
        }
        String user = text(node, "user", where, false);
        int systemUser = -1;
        String userPath = null;
        if (role == ProbeSpec.ContextProbe.Role.SYSTEM) {
            systemUser = user == null ? -1 : ProbeSpec.ContextProbe.SYSTEM_USERS.indexOf(user);
            if (systemUser < 0) {
                throw new IllegalArgumentException(
                        where + ": a system context probe needs a user, one of " + ProbeSpec.ContextProbe.SYSTEM_USERS);
            }
        } else if (role == ProbeSpec.ContextProbe.Role.CALL) {
            if (user == null || !user.matches("[A-Za-z_$][\\w$]*(\\(\\))?(\\.[A-Za-z_$][\\w$]*(\\(\\))?)*")) {
                throw new IllegalArgumentException(where + ": a call context probe needs a user: how to read"
                        + " the user's name from the call, e.g. user.getShortName()");
            }
            userPath = user;
        } else if (user != null) {
            throw new IllegalArgumentException(where + ": user applies to call and system context probes only");
        }
        ValueRef region = value(node, "region", where);
        if (region != null
                && role != ProbeSpec.ContextProbe.Role.REGION_START
                && role != ProbeSpec.ContextProbe.Role.SYSTEM) {
            throw new IllegalArgumentException(
                    where + ": region applies to region-start and system context probes only");
        }
        return new ProbeSpec.ContextProbe(target, role, value, systemUser, userPath, region);
    }

    /** The probe's value; {@code fallback} when the profile gives none. */
    private static ValueRef valueOr(Map<?, ?> node, String where, String fallback) {
        ValueRef value = value(node, "value", where);
        return value == null ? ValueRef.parse(fallback) : value;
    }

    private static ValueRef required(Map<?, ?> node, ProbeKind kind, String where, String example) {
        ValueRef value = value(node, "value", where);
        if (value == null) {
            throw new IllegalArgumentException(
                    where + ": value is required for a " + kind.label() + " probe (" + example + ")");
        }
        return value;
    }

    private static Condition condition(Map<?, ?> node, String field, String where) {
        ValueRef value = value(node, field, where);
        return value == null ? Condition.ALWAYS : Condition.of(value);
    }

    /** checkout: true (the default: every hit is one), false, or a boolean value read on hits. */
    private static Condition checkout(Map<?, ?> node, String where) {
        String text = text(node, "checkout", where, false);
        if (text == null || text.equals("true")) {
            return Condition.ALWAYS;
        }
        if (text.equals("false")) {
            return Condition.NEVER;
        }
        return Condition.of(parsed(text, ValueRef::parse, where + ": checkout (true, false or a value)"));
    }

    private static boolean returnsCheckedOut(Map<?, ?> node, String where) {
        String text = text(node, "returns", where, false);
        if (text != null && !text.equals("all") && !text.equals("checked-out")) {
            throw new IllegalArgumentException(where + ": returns '" + text + "' must be all (every call counts)"
                    + " or checked-out (only calls giving back a block a hit handed out)");
        }
        return "checked-out".equals(text);
    }

    private static ByName<String> tiers(Map<?, ?> node, ProbeKind kind, String where) {
        ByName<String> tiers = byName(node.get("tier"), where + ": tier", t -> label(t, "label"));
        if (tiers.isEmpty()) {
            throw new IllegalArgumentException(where + ": a " + kind.label()
                    + " probe needs a tier: a label (\"l2\") or labels by class name ({\"com.acme.Lru\": \"l1\"})");
        }
        return tiers;
    }

    private static ByName<Component> components(Map<?, ?> node, List<MethodSpec> methods, String where) {
        ByName<Component> components = byName(node.get("component"), where + ": component", Component::of);
        if (components.isEmpty()) {
            throw new IllegalArgumentException(where + ": a copy probe needs a component: a label (\"block\"),"
                    + " labels by method name ({\"copyRow\": \"row\"}), or \"door\" (a copy door's)");
        }
        for (MethodSpec method : methods) {
            if (components.get(method.name()) == null) {
                throw new IllegalArgumentException(where + ": method " + method.name() + " has no component;"
                        + " add it to component, or give one component for all methods");
            }
        }
        return components;
    }

    /** A door's components: every method needs one, unless the door names its receiver (then none may). */
    private static ByName<Component> doorComponents(Map<?, ?> node, List<MethodSpec> methods, String where) {
        if (node.get("component") == null && "receiver".equals(node.get("names"))) {
            return new ByName<>(Map.of(), null);
        }
        ByName<Component> components = byName(node.get("component"), where + ": component", Component::of);
        if (components.isEmpty()) {
            throw new IllegalArgumentException(where + ": a copy-door probe needs a component: a label (\"value\"),"
                    + " labels by method name ({\"cloneRow\": \"row\"}), or \"names\": \"receiver\" alone");
        }
        return components(node, methods, where);
    }

    private static boolean namesReceiver(Map<?, ?> node, String where) {
        Object names = node.get("names");
        if (names != null && !"receiver".equals(names)) {
            throw new IllegalArgumentException(where + ": names must be \"receiver\" (the door names the copy's"
                    + " site after its receiver's class), was '" + names + "'");
        }
        return names != null;
    }

    /** A heap-fallback probe's pool: optional, every field optional (see {@link PoolSpec}). */
    private static PoolSpec pool(Object value, String where) {
        String here = where + ": pool";
        if (value == null) {
            return new PoolSpec(null, null, null, null, null, null, null, null);
        }
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(here + " must be an object with "
                    + String.join(", ", POOL_FIELDS.stream().sorted().collect(Collectors.toList())));
        }
        Map<?, ?> node = (Map<?, ?>) value;
        checkFields(node, POOL_FIELDS, here);
        return new PoolSpec(
                value(node, "pooled", here),
                value(node, "minPooledSize", here),
                value(node, "bufferSize", here),
                value(node, "maxBuffers", here),
                value(node, "createdBuffers", here),
                value(node, "freeBuffers", here),
                value(node, "heapBytes", here),
                value(node, "poolBytes", here));
    }

    private static OccupancySpec occupancy(Object value, String where) {
        String here = where + ": occupancy";
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(here + " must be an object with " + String.join(", ", OCCUPANCY_FIELDS));
        }
        Map<?, ?> node = (Map<?, ?>) value;
        checkFields(node, OCCUPANCY_FIELDS, here);
        Object sizeClass = node.get("sizeClass");
        if (sizeClass != null && !(sizeClass instanceof Map)) {
            throw new IllegalArgumentException(
                    here + ": sizeClass must be an object with " + String.join(", ", SIZE_CLASS_FIELDS));
        }
        if (sizeClass != null) {
            checkFields((Map<?, ?>) sizeClass, SIZE_CLASS_FIELDS, here + ".sizeClass");
        }
        if (node.containsKey("sizeClasses") != (sizeClass != null)) {
            throw new IllegalArgumentException(
                    here + ": sizeClasses and sizeClass go together (the list, and how to read one element)");
        }
        Map<?, ?> classes = sizeClass == null ? Map.of() : (Map<?, ?>) sizeClass;
        return new OccupancySpec(
                value(node, "capacity", here),
                value(node, "used", here),
                value(node, "wasted", here),
                value(node, "allocationFailures", here),
                readPathMode(node.get("readPathMode"), here),
                readPathModeLabels(node.get("readPathMode"), here),
                value(node, "sizeClasses", here),
                value(classes, "itemSize", here),
                value(classes, "usedSlots", here),
                value(classes, "freeSlots", here),
                value(classes, "usedBytes", here),
                value(classes, "freeBytes", here));
    }

    /** readPathMode: a value whose string form is the label, or {"value": ..., "labels": {label: regex}}. */
    private static ValueRef readPathMode(Object value, String where) {
        String here = where + ": readPathMode";
        if (value == null) {
            return null;
        }
        if (value instanceof String) {
            return parsed((String) value, ValueRef::parse, here);
        }
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(here + " must be a value (e.g. this.mode().label()) or an object"
                    + " {\"value\": ..., \"labels\": {\"zero-copy\": \"regex\", ...}}");
        }
        Map<?, ?> node = (Map<?, ?>) value;
        checkFields(node, READ_PATH_MODE_FIELDS, here);
        String text = text(node, "value", here, true);
        return parsed(text, ValueRef::parse, here + ": value");
    }

    private static Map<String, Pattern> readPathModeLabels(Object value, String where) {
        Map<String, Pattern> labels = new LinkedHashMap<>();
        if (!(value instanceof Map)) {
            return labels;
        }
        String here = where + ": readPathMode.labels";
        Object labelsNode = ((Map<?, ?>) value).get("labels");
        if (!(labelsNode instanceof Map) || ((Map<?, ?>) labelsNode).isEmpty()) {
            throw new IllegalArgumentException(
                    here + " must be a non-empty object of label: regular expression (first found wins)");
        }
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) labelsNode).entrySet()) {
            String label = label(String.valueOf(entry.getKey()), here);
            if (!(entry.getValue() instanceof String)) {
                throw new IllegalArgumentException(here + ": " + label + " must be a regular expression string");
            }
            try {
                labels.put(label, Pattern.compile((String) entry.getValue()));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(
                        here + ": " + label + " is not a regular expression: " + e.getDescription());
            }
        }
        return labels;
    }

    private static ValueRef value(Map<?, ?> node, String field, String where) {
        String text = text(node, field, where, false);
        return text == null ? null : parsed(text, ValueRef::parse, where + ": " + field);
    }

    /** A field that is either one label for all, or labels by name. */
    private static <T> ByName<T> byName(Object node, String where, Function<String, T> parse) {
        if (node == null) {
            return new ByName<>(Map.of(), null);
        }
        if (node instanceof String) {
            return new ByName<>(Map.of(), parsed((String) node, parse, where));
        }
        if (!(node instanceof Map)) {
            throw new IllegalArgumentException(where + " must be a label or an object of labels by name");
        }
        Map<String, T> byName = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) node).entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (!(entry.getValue() instanceof String)) {
                throw new IllegalArgumentException(where + ": the value for '" + key + "' must be a label");
            }
            byName.put(key, parsed((String) entry.getValue(), parse, where + " of " + key));
        }
        return new ByName<>(byName, null);
    }

    private static <T> T parsed(String text, Function<String, T> parse, String where) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static String label(String text, String where) {
        if (!text.matches(LABEL)) {
            throw new IllegalArgumentException(where + " '" + text + "' must match " + LABEL);
        }
        return text;
    }

    private static void checkFields(Map<?, ?> node, Set<String> accepted, String where) {
        for (Object key : node.keySet()) {
            String field = String.valueOf(key);
            if (!accepted.contains(field)) {
                throw new IllegalArgumentException(where + ": unknown field '" + field + "'; accepted: "
                        + String.join(", ", accepted.stream().sorted().collect(Collectors.toList())));
            }
        }
    }

    private static String text(Map<?, ?> node, String field, String where, boolean required) {
        Object value = node.get(field);
        if (value == null) {
            if (required) {
                throw new IllegalArgumentException(where + ": field '" + field + "' is required");
            }
            return null;
        }
        if (!(value instanceof String)) {
            throw new IllegalArgumentException(where + ": field '" + field + "' must be a string");
        }
        return (String) value;
    }

    private static List<String> strings(Map<?, ?> node, String field, String where) {
        Object value = node.get(field);
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof List)) {
            throw new IllegalArgumentException(where + ": field '" + field + "' must be an array of strings");
        }
        for (Object element : (List<?>) value) {
            if (!(element instanceof String)) {
                throw new IllegalArgumentException(where + ": field '" + field + "' must be an array of strings");
            }
            out.add((String) element);
        }
        return out;
    }
}
