package io.blockscope.agent.bootstrap;

/**
 * Whose work a thread is doing: the table and the user copies are counted under (and heap
 * fallbacks, and the leak tracker's takes, under the table). Kept per thread
 * in its counter row ({@link CounterRows#context}), as small ids of two bounded {@link Interned}
 * tables, so a copy adds into its table's and user's column with array stores only.
 *
 * <p>How the advice drives it (HBase: {@code hbase2} profile): an RPC call sets the user and clears
 * the table at its start ({@link #callStart}) and puts back what was there at its end ({@link
 * #restore}), so a pooled handler thread never carries one call's table or user into the next. A
 * region operation's start sets its table ({@link #regionStart}) and its end ({@link #regionEnd})
 * puts back the table it found, except that the outermost table stays until the call ends: the
 * response is encoded (and its blocks released) after the handler method returns. A nested
 * operation (a coprocessor reading table B inside table A's scan, on the same thread) counts
 * under B, then under A again. Flushes and compactions run outside calls ({@link #systemStart}):
 * their region's table and a fixed user that says so.
 *
 * <p>The region goes with the table, as a reference (no id, no label: a server has thousands), for
 * the leak reports only.
 */
public final class Context {

    /** Label values of the fixed users: work the server does for itself. */
    public static final String[] SYSTEM_USERS = {"(compaction)", "(flush)"};
    /** Label value for copies outside any table or user context. */
    public static final String NONE = "(none)";

    public static final int DEFAULT_TABLES = 50;
    public static final int DEFAULT_USERS = 50;
    /** The largest cap either option accepts. */
    public static final int MAX_CAP = 10_000;

    /** In the thread's context row: the table id ... */
    static final int TABLE = 0;
    /** ... the user id ... */
    static final int USER = 1;
    /** ... how many region operations are open ... */
    static final int DEPTH = 2;
    /** ... and, from here, the table each open one found when it started. */
    static final int STACK = 3;

    static final int MAX_DEPTH = 8;
    static final int LENGTH = STACK + MAX_DEPTH;

    /** Reads a call's user name (a {@code String}) from the call object; agent side. */
    public interface UserNames {
        UserNames NONE = call -> null;

        Object name(Object call);
    }

    static volatile Interned tables = new Interned(NONE, new String[0], DEFAULT_TABLES);
    static volatile Interned users = new Interned(NONE, SYSTEM_USERS, DEFAULT_USERS);
    private static volatile UserNames userNames = UserNames.NONE;

    private Context() {}

    /** Sets the caps and the user reader; called once, before any probe is installed. */
    public static void configure(int tableCap, int userCap, UserNames names) {
        tables = new Interned(NONE, new String[0], Math.min(tableCap, MAX_CAP));
        users = new Interned(NONE, SYSTEM_USERS, Math.min(userCap, MAX_CAP));
        userNames = names;
    }

    public static Interned tables() {
        return tables;
    }

    public static Interned users() {
        return users;
    }

    /**
     * An RPC call starts on this thread: its user, no table or region yet. Returns what to {@link
     * #restore}, with the region the thread had ({@link #region()}, read before this).
     */
    public static long callStart(Object call) {
        ContextRow row = CounterRows.context();
        int[] context = row.ids;
        long saved = pack(context);
        context[TABLE] = 0;
        context[DEPTH] = 0;
        context[USER] = users.id(userNames.name(call));
        row.regions[TABLE] = null;
        return saved;
    }

    /** Work the server does for itself on {@code region} of {@code table}: user {@code SYSTEM_USERS[system]}. */
    public static long systemStart(Object table, Object region, int system) {
        ContextRow row = CounterRows.context();
        int[] context = row.ids;
        long saved = pack(context);
        context[TABLE] = tables.id(table);
        context[DEPTH] = 0;
        context[USER] = 1 + system;
        row.regions[TABLE] = region;
        return saved;
    }

    /** Puts back what {@link #callStart} or {@link #systemStart} found, and the region read before it. */
    public static void restore(long saved, Object region) {
        ContextRow row = CounterRows.context();
        int[] context = row.ids;
        context[TABLE] = (int) (saved & 0xFFFFF);
        context[USER] = (int) ((saved >>> 20) & 0xFFFFF);
        context[DEPTH] = (int) (saved >>> 40);
        row.regions[TABLE] = region;
    }

    /** A region operation on {@code region} of {@code table} started (and did not throw). */
    public static void regionStart(Object table, Object region) {
        ContextRow row = CounterRows.context();
        int[] context = row.ids;
        int depth = context[DEPTH];
        if (depth < MAX_DEPTH) {
            context[STACK + depth] = context[TABLE];
            row.regions[STACK + depth] = row.regions[TABLE];
        }
        context[DEPTH] = depth + 1;
        context[TABLE] = tables.id(table);
        row.regions[TABLE] = region;
    }

    /** A region operation ended: the table and region it found come back, unless that was none (see above). */
    public static void regionEnd() {
        ContextRow row = CounterRows.context();
        int[] context = row.ids;
        int depth = context[DEPTH] - 1;
        if (depth < 0) {
            return; // an end without a start we saw: a start that threw, or one before the agent
        }
        context[DEPTH] = depth;
        if (depth < MAX_DEPTH && context[STACK + depth] != 0) {
            context[TABLE] = context[STACK + depth];
            row.regions[TABLE] = row.regions[STACK + depth];
            row.regions[STACK + depth] = null; // a region the thread no longer works on is not kept alive
        }
    }

    /**
     * Copy bytes so far, by table id and component ({@code byTable[table * MAX_COMPONENTS +
     * component]}, {@code tables().width() * Counters.MAX_COMPONENTS} long) and by user id ({@code
     * users().width()} long); scrape side.
     */
    public static void copyBytes(long[] byTable, long[] byUser) {
        CounterRows.sumContext(byTable, byUser);
    }

    /**
     * Heap fallbacks so far by table id and reason: calls at {@code [(table * FALLBACK_REASONS +
     * reason) * 2]}, bytes at the next index ({@code tables().width() * 2 *
     * Counters.FALLBACK_REASONS} long); scrape side.
     */
    public static void heapFallbacks(long[] byTable) {
        CounterRows.sumFallbacks(byTable);
    }

    /** This thread's table id: off the hot path (a sampled checkout's leak record), and tests. */
    public static int table() {
        return CounterRows.context().ids[TABLE];
    }

    /**
     * The region this thread works on (HBase: its encoded name), null outside one: a sampled
     * checkout's leak record, and what a call or system start saves for {@link #restore}.
     */
    public static Object region() {
        return CounterRows.context().regions[TABLE];
    }

    /** This thread's user id (tests). */
    public static int user() {
        return CounterRows.context().ids[USER];
    }

    private static long pack(int[] context) {
        return (context[TABLE] & 0xFFFFFL)
                | ((context[USER] & 0xFFFFFL) << 20)
                | ((long) Math.min(context[DEPTH], 0xFFFF) << 40);
    }
}
