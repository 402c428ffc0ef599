package io.blockscope.agent.profile;

import java.util.List;

/**
 * One probe of a profile: where it hooks in (types and methods) and, per {@link ProbeKind}, what it
 * reads there. One final subclass per kind, each with only its kind's fields; the private
 * constructor closes the set (the agent is Java 11: no sealed types), and {@link Visitor} makes
 * code that handles every kind fail to compile when a kind is added.
 */
public abstract class ProbeSpec {
    private final Target target;

    private ProbeSpec(Target target) {
        this.target = target;
    }

    /** Calls the visitor's method for this probe's kind. */
    public abstract <R> R accept(Visitor<R> visitor);

    public abstract ProbeKind kind();

    public String name() {
        return target.name;
    }

    public List<TypeSpec> types() {
        return target.types;
    }

    public List<MethodSpec> methods() {
        return target.methods;
    }

    /**
     * Probes of the same profile that do this probe's job on other versions of the server (e.g. the
     * give-back method of one release line or the other): when one of them is enabled, this probe
     * being off is expected, not a gap. Empty when none.
     */
    public List<String> alternatives() {
        return target.alternatives;
    }

    @Override
    public String toString() {
        return kind().label() + " probe " + name() + " on " + types() + " " + methods();
    }

    /** One method per kind; the compiler checks that an implementation handles them all. */
    public interface Visitor<R> {
        R blockGet(BlockGet probe);

        R blockReturn(BlockReturn probe);

        R copy(Copy probe);

        R copyDoor(CopyDoor probe);

        R occupancy(Occupancy probe);

        R receiver(Receiver probe);

        R heapFallback(HeapFallback probe);

        R bufferTouch(BufferTouch probe);

        R context(ContextProbe probe);
    }

    /** What every kind has: the probe's name, where it hooks in, and the probes it stands in for. */
    public static final class Target {
        private final String name;
        private final List<TypeSpec> types;
        private final List<MethodSpec> methods;
        private final List<String> alternatives;

        public Target(String name, List<TypeSpec> types, List<MethodSpec> methods, List<String> alternatives) {
            this.name = name;
            this.types = List.copyOf(types);
            this.methods = List.copyOf(methods);
            this.alternatives = List.copyOf(alternatives);
        }
    }

    /**
     * A probe on a cache's blocks (a lookup or a give-back), or on a pool's buffers (a take or a
     * give-back, {@link #pooledBuffers()}): its value is the block or buffer, counted by tier.
     */
    public abstract static class BlockProbe extends ProbeSpec {
        private final ByName<String> tiers;
        private final ValueRef block;
        private final Condition when;
        private final boolean pooledBuffers;

        /** @param when whether a call counts at all (e.g. {@code this.isSharedMem()}) */
        private BlockProbe(Target target, ByName<String> tiers, ValueRef block, Condition when, boolean pooledBuffers) {
            super(target);
            this.tiers = tiers;
            this.block = block;
            this.when = when;
            this.pooledBuffers = pooledBuffers;
        }

        /**
         * True for a pool's buffers ({@code buffer-take}, {@code buffer-return}): checked out and given
         * back like blocks, tracked for leaks like them, but their tier is a pool, not a cache tier.
         */
        public boolean pooledBuffers() {
            return pooledBuffers;
        }

        /** Tier label by class name; the fallback applies to a class none of them names. */
        public ByName<String> tiers() {
            return tiers;
        }

        /** The tier of a class given its name and its superclasses' names, nearest first; null if none. */
        public String tierFor(List<String> classAndSuperclasses) {
            return tiers.first(classAndSuperclasses);
        }

        /** The block: the one a lookup returned (null: a miss), or the one given back. */
        public ValueRef value() {
            return block;
        }

        public Condition when() {
            return when;
        }
    }

    /** A cache lookup. */
    public static final class BlockGet extends BlockProbe {
        private final Condition counted;
        private final Condition checkout;

        /**
         * @param counted  whether the lookup counts in {@code gets_total} (e.g. the cache's own metrics
         *                 flag); a block handed out by an uncounted lookup is still a checkout
         * @param checkout read on hits only: whether the hit is a checkout the reader gives back (e.g.
         *                 {@code return.isSharedMem()})
         */
        public BlockGet(
                Target target,
                ByName<String> tiers,
                ValueRef block,
                Condition when,
                Condition counted,
                Condition checkout) {
            this(target, tiers, block, when, counted, checkout, false);
        }

        /** @param pooledBuffers a pool's buffer take ({@code buffer-take}), not a cache lookup */
        public BlockGet(
                Target target,
                ByName<String> tiers,
                ValueRef block,
                Condition when,
                Condition counted,
                Condition checkout,
                boolean pooledBuffers) {
            super(target, tiers, block, when, pooledBuffers);
            this.counted = counted;
            this.checkout = checkout;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.blockGet(this);
        }

        @Override
        public ProbeKind kind() {
            return pooledBuffers() ? ProbeKind.BUFFER_TAKE : ProbeKind.BLOCK_GET;
        }

        public Condition counted() {
            return counted;
        }

        public Condition checkout() {
            return checkout;
        }
    }

    /** A checked-out block given back. */
    public static final class BlockReturn extends BlockProbe {
        private final boolean checkedOutOnly;

        /**
         * @param checkedOutOnly count a return only when it gives back a block a hit checked out, under
         *                       that hit's tier (profile: "returns": "checked-out")
         */
        public BlockReturn(
                Target target, ByName<String> tiers, ValueRef block, Condition when, boolean checkedOutOnly) {
            this(target, tiers, block, when, checkedOutOnly, false);
        }

        /** @param pooledBuffers a pool's buffer give-back ({@code buffer-return}), not a block's */
        public BlockReturn(
                Target target,
                ByName<String> tiers,
                ValueRef block,
                Condition when,
                boolean checkedOutOnly,
                boolean pooledBuffers) {
            super(target, tiers, block, when, pooledBuffers);
            this.checkedOutOnly = checkedOutOnly;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.blockReturn(this);
        }

        @Override
        public ProbeKind kind() {
            return pooledBuffers() ? ProbeKind.BUFFER_RETURN : ProbeKind.BLOCK_RETURN;
        }

        public boolean returnsCheckedOut() {
            return checkedOutOnly;
        }
    }

    /** A copy onto the heap; its value is the number of bytes copied. */
    public static final class Copy extends ProbeSpec {
        private final ValueRef bytes;
        private final Condition when;
        private final ByName<Component> components;

        /**
         * @param components the component copied, by method name; empty for a copy counted only
         *     inside a {@link CopyDoor}, under the door's component
         */
        public Copy(Target target, ValueRef bytes, Condition when, ByName<Component> components) {
            super(target);
            this.bytes = bytes;
            this.when = when;
            this.components = components;
        }

        /** True when the copy counts only inside a door, under the door's component. */
        public boolean fromDoor() {
            return components.isEmpty();
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.copy(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.COPY;
        }

        /** The number of bytes copied. */
        public ValueRef value() {
            return bytes;
        }

        public Condition when() {
            return when;
        }

        /** The component counted for a method name; null if none. */
        public Component componentFor(String methodName) {
            return components.get(methodName);
        }
    }

    /**
     * A method that makes the copies inside it cell copies of its component (see {@link
     * ProbeKind#COPY_DOOR}), or copies the server makes by design ({@link DesignedCopy}); with
     * {@code namesReceiver} it also names their site after its receiver.
     */
    public static final class CopyDoor extends ProbeSpec {
        private final ByName<Component> components;
        private final boolean namesReceiver;
        private final DesignedCopy design;

        /**
         * @param components the component by method name; empty for a door that only names its
         *     receiver, or one whose copies are by design
         * @param design the server's operation that copies by design inside this door; null for none
         */
        public CopyDoor(Target target, ByName<Component> components, boolean namesReceiver, DesignedCopy design) {
            super(target);
            this.components = components;
            this.namesReceiver = namesReceiver;
            this.design = design;
        }

        /** The operation whose copies this door marks as by design; null for a door of avoidable copies. */
        public DesignedCopy design() {
            return design;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.copyDoor(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.COPY_DOOR;
        }

        /** The component a method marks; null if it marks none (a door that only names its receiver). */
        public Component componentFor(String methodName) {
            return components.get(methodName);
        }

        public boolean namesReceiver() {
            return namesReceiver;
        }
    }

    /** Captures the instance whose accessors give bucket occupancy at scrape time. */
    public static final class Occupancy extends ProbeSpec {
        private final ValueRef instance;
        private final OccupancySpec occupancy;

        public Occupancy(Target target, ValueRef instance, OccupancySpec occupancy) {
            super(target);
            this.instance = instance;
            this.occupancy = occupancy;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.occupancy(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.OCCUPANCY;
        }

        /** The instance whose accessors are read at scrape time. */
        public ValueRef value() {
            return instance;
        }

        public OccupancySpec occupancy() {
            return occupancy;
        }
    }

    /** Names copies and checkouts sampled inside inherited methods after the receiver's class. */
    public static final class Receiver extends ProbeSpec {
        public Receiver(Target target) {
            super(target);
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.receiver(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.RECEIVER;
        }
    }

    /**
     * A buffer allocator's heap allocation: its value is the bytes; the pool says why the allocation
     * was not pooled and how to read the allocator (captured as {@code this}) at scrape time.
     */
    public static final class HeapFallback extends ProbeSpec {
        private final ValueRef bytes;
        private final Condition when;
        private final PoolSpec pool;

        public HeapFallback(Target target, ValueRef bytes, Condition when, PoolSpec pool) {
            super(target);
            this.bytes = bytes;
            this.when = when;
            this.pool = pool;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.heapFallback(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.HEAP_FALLBACK;
        }

        /** The bytes allocated on the heap. */
        public ValueRef value() {
            return bytes;
        }

        public Condition when() {
            return when;
        }

        /** The reason's inputs and the allocator's scrape-time figures (every field optional). */
        public PoolSpec pool() {
            return pool;
        }
    }

    /** A holder of pooled buffers in use (see {@link ProbeKind#BUFFER_TOUCH}). */
    public static final class BufferTouch extends ProbeSpec {
        private final ValueRef holder;
        private final Condition when;
        private final List<String> bufferFields;

        public BufferTouch(Target target, ValueRef holder, Condition when, List<String> bufferFields) {
            super(target);
            this.holder = holder;
            this.when = when;
            this.bufferFields = List.copyOf(bufferFields);
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.bufferTouch(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.BUFFER_TOUCH;
        }

        /** The holder whose buffers are touched. */
        public ValueRef value() {
            return holder;
        }

        public Condition when() {
            return when;
        }

        /** The holder's fields that may keep its buffer, tried in order (releases name it differently). */
        public List<String> bufferFields() {
            return bufferFields;
        }
    }

    /** Marks whose work a thread does (see {@link ProbeKind#CONTEXT}). */
    public static final class ContextProbe extends ProbeSpec {
        /** What the probe's methods mark. */
        public enum Role {
            CALL("call"),
            REGION_START("region-start"),
            REGION_END("region-end"),
            SYSTEM("system");

            private final String label;

            Role(String label) {
                this.label = label;
            }

            public String label() {
                return label;
            }

            public static Role of(String label) {
                for (Role role : values()) {
                    if (role.label.equals(label)) {
                        return role;
                    }
                }
                throw new IllegalArgumentException(
                        "unknown role '" + label + "'; accepted: call, region-start, region-end, system");
            }
        }

        /** The fixed users of {@link Role#SYSTEM} probes, in {@code Context.SYSTEM_USERS} order. */
        public static final java.util.List<String> SYSTEM_USERS = java.util.List.of("compaction", "flush");

        private final Role role;
        private final ValueRef value;
        private final int systemUser;
        private final String userPath;
        private final ValueRef region;

        public ContextProbe(
                Target target, Role role, ValueRef value, int systemUser, String userPath, ValueRef region) {
            super(target);
            this.role = role;
            this.value = value;
            this.systemUser = systemUser;
            this.userPath = userPath;
            this.region = region;
        }

        /**
         * {@code call}: how to read the user's name from the call, field reads ({@code user}) and
         * no-argument calls ({@code getShortName()}) joined by dots, run reflectively on the call's
         * class (once per call, outside the cell path); else null.
         */
        public String userPath() {
            return userPath;
        }

        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.context(this);
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.CONTEXT;
        }

        public Role role() {
            return role;
        }

        /** The call ({@code call}) or the table (other roles); null for {@code region-end}. */
        public ValueRef value() {
            return value;
        }

        /**
         * {@code region-start} and {@code system}: the region the table belongs to, for leak
         * reports (no label carries it); null if the profile names none.
         */
        public ValueRef region() {
            return region;
        }

        /** {@code system}: the index of its user in {@link #SYSTEM_USERS}; else -1. */
        public int systemUser() {
            return systemUser;
        }
    }
}
