package io.blockscope.agent.profile;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The generic things a probe can count. A new server needs a new profile that points these at its
 * classes; a new kind is only needed for a new kind of fact.
 */
public enum ProbeKind {
    /** A cache lookup: {@code value} is the block it returned, null meaning a miss. Needs a tier. */
    BLOCK_GET("block-get"),
    /**
     * A checked-out block given back: {@code value} is the block. Fits {@code returnBlock(key, block)}
     * ({@code arg1}) as well as {@code release()} on a reference-counted block ({@code this}).
     */
    BLOCK_RETURN("block-return"),
    /**
     * A buffer taken from a pool: {@code value} is the buffer (null: none was free, nothing counts).
     * Tracked for leaks like a checkout of its own tier, which is not a cache tier: it never shows
     * in the block cache's series, and its leaks carry {@code kind="buffer"}.
     */
    BUFFER_TAKE("buffer-take"),
    /** A pooled buffer given back to its pool: {@code value} is the buffer a {@link #BUFFER_TAKE} took. */
    BUFFER_RETURN("buffer-return"),
    /**
     * A holder of pooled buffers is still in use (a scanner passing by the block it stands on):
     * {@code value} is the holder, and the buffers it keeps, reached through its field named by
     * {@code buffer}, restart their age, so they are not counted stuck while their holder lives.
     */
    BUFFER_TOUCH("buffer-touch"),
    /**
     * A copy onto the heap: {@code value} is the number of bytes copied. Needs a component, or
     * {@code "door"}: then it counts only inside a {@link #COPY_DOOR}, under that door's component.
     */
    COPY("copy"),
    /**
     * A method through which a server's cells are copied onto the heap ({@code getValueArray()}, a
     * {@code clone}/{@code copyTo} helper, a comparator's default buffer path): it counts nothing
     * itself, it marks the copies made inside it (by a {@code "door"} copy probe at the primitive
     * that moves the bytes) as cell copies of its component. Nested doors count once, under the
     * outermost door's component. A door with {@code "names": "receiver"} also names the copy's site
     * after its receiver's class (a comparator: which one a filter used). A door with {@code
     * "design": operation} marks copies the server makes by design instead ({@link DesignedCopy}):
     * counted by operation, apart from the avoidable ones.
     */
    COPY_DOOR("copy-door"),
    /** Captures the instance ({@code this}, or {@code value}) whose accessors give bucket occupancy. */
    OCCUPANCY("occupancy"),
    /**
     * Methods a class inherits (e.g. a filter's {@code filterRowKey} declared by its base class): a
     * copy or checkout sampled inside one is attributed to the receiver's concrete class, not to
     * the declaring class. No value: the receiver is {@code this}.
     */
    RECEIVER("receiver"),
    /**
     * A buffer allocator's heap allocation: {@code value} is the bytes; the probe's {@code pool} says
     * why it was not pooled (the reason) and how to read the allocator, captured as {@code this}, at
     * scrape time.
     */
    HEAP_FALLBACK("heap-fallback"),
    /**
     * Whose work a thread does, for the table and user labels of copies: {@code role} says what the
     * method marks. {@code call}: an RPC call (the {@code value} is the call, whose user is read);
     * {@code region-start} (exit) / {@code region-end}: a region operation on the table {@code value}
     * names; {@code system}: work the server does for itself on table {@code value}, {@code user}
     * {@code compaction} or {@code flush}.
     */
    CONTEXT("context");

    private final String label;

    ProbeKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static ProbeKind of(String label) {
        for (ProbeKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown kind '" + label + "'; accepted: " + accepted());
    }

    static String accepted() {
        return Arrays.stream(values()).map(ProbeKind::label).collect(Collectors.joining(", "));
    }
}
