package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whose copies they are: the table and user a thread's copies count under, and the bounded ids. */
class ContextTest {

    private static final int VALUE = 3;

    /** An RPC call as the call probe sees it: an object the user reader takes the name from. */
    private static final class Call {
        final String user;

        Call(String user) {
            this.user = user;
        }
    }

    @BeforeEach
    void configure() {
        Context.configure(4, 4, call -> ((Call) call).user);
    }

    @Test
    void idsAreBoundedAndFoundByEquality() {
        Interned interned = new Interned("(none)", new String[] {"(fixed)"}, 2);
        assertEquals(0, interned.id(null));
        int a = interned.id("a");
        int b = interned.id(new String("b"));
        assertEquals(2, a, "after none and the fixed value");
        assertEquals(3, b);
        assertEquals(a, interned.id(new String("a")), "an equal key, not the same object");
        assertEquals(interned.other(), interned.id("c"), "past the cap");
        assertEquals(interned.other(), interned.id("d"));
        assertEquals(b, interned.id("b"));
        assertEquals("a", interned.key(a));
        assertEquals("other", interned.key(interned.other()));
        assertEquals("(fixed)", interned.key(1));
        assertEquals(5, interned.width());
    }

    @Test
    void aNestedRegionOperationCountsUnderItsTableThenTheOuterOne() throws Exception {
        long[][] delta = copiesOnNewThread(() -> {
            long saved = Context.callStart(new Call("alice"));
            Context.regionStart("ns:a", null);
            Copies.copied(0, VALUE, 10);
            Context.regionStart("ns:b", null); // a coprocessor's own get on b, same thread
            Copies.copied(0, VALUE, 100);
            Context.regionEnd();
            Copies.copied(0, VALUE, 1_000); // a's scan goes on
            Context.regionEnd();
            Copies.copied(0, VALUE, 10_000); // the response, encoded after the handler method returned
            Context.restore(saved, null);
            Copies.copied(0, VALUE, 100_000); // outside any call
        });
        assertEquals(11_010, tableBytes(delta, "ns:a"));
        assertEquals(100, tableBytes(delta, "ns:b"));
        assertEquals(100_000, tableBytes(delta, null));
        assertEquals(11_110, userBytes(delta, "alice"));
        assertEquals(100_000, delta[1][0], "no user outside calls");
    }

    @Test
    void aPooledThreadDoesNotCarryOneCallsTableOrUserIntoTheNext() throws Exception {
        long[][] delta = copiesOnNewThread(() -> {
            long saved = Context.callStart(new Call("alice"));
            Context.regionStart("ns:a", null);
            Copies.copied(0, VALUE, 7);
            // a start whose end we never see (HBase's COMPACT_REGION operation has none)
            Context.regionStart("ns:a", null);
            Context.restore(saved, null);
            saved = Context.callStart(new Call("bob"));
            Copies.copied(0, VALUE, 5); // before its region is known
            Context.regionStart("ns:b", null);
            Copies.copied(0, VALUE, 50);
            Context.regionEnd();
            Context.restore(saved, null);
        });
        assertEquals(7, tableBytes(delta, "ns:a"));
        assertEquals(50, tableBytes(delta, "ns:b"));
        assertEquals(5, tableBytes(delta, null));
        assertEquals(7, userBytes(delta, "alice"));
        assertEquals(55, userBytes(delta, "bob"));
    }

    @Test
    void theRegionGoesWithItsTableAndNoCallCarriesItIntoTheNext() throws Exception {
        FreshThread.run(() -> {
            Object outer = Context.region();
            long saved = Context.callStart(new Call("alice"));
            assertNull(Context.region(), "no region before a region operation");
            Context.regionStart("ns:a", "regionA");
            Context.regionStart("ns:b", "regionB"); // a coprocessor's own get on b
            assertEquals("regionB", Context.region());
            Context.regionEnd();
            assertEquals("regionA", Context.region(), "back on a's region");
            Context.regionEnd();
            assertEquals("regionA", Context.region(), "the outermost region stays until the call ends");
            // a flush on the handler thread, inside the call
            Object beforeFlush = Context.region();
            long flush = Context.systemStart("ns:a", "regionA2", 1);
            assertEquals("regionA2", Context.region());
            Context.restore(flush, beforeFlush);
            assertEquals("regionA", Context.region());
            Context.restore(saved, outer);
            assertNull(Context.region(), "a pooled thread's next call starts without one");
            saved = Context.callStart(new Call("bob"));
            assertNull(Context.region());
            Context.restore(saved, null);
        });
    }

    @Test
    void compactionsCountUnderTheirTableAndAFixedUser() throws Exception {
        long[][] delta = copiesOnNewThread(() -> {
            long saved = Context.systemStart("ns:a", null, 0);
            Copies.copied(0, VALUE, 9);
            Context.restore(saved, null);
        });
        assertEquals(9, tableBytes(delta, "ns:a"));
        assertEquals(9, delta[1][1], "user (compaction)");
        assertEquals("(compaction)", Context.users().key(1));
    }

    @Test
    void tablesAndUsersPastTheCapShareOther() throws Exception {
        long[][] delta = copiesOnNewThread(() -> {
            for (int i = 0; i < 10; i++) {
                long saved = Context.callStart(new Call("user" + i));
                Context.regionStart("ns:t" + i, null);
                Copies.copied(0, VALUE, 1);
                Context.regionEnd();
                Context.restore(saved, null);
            }
        });
        Interned tables = Context.tables();
        assertEquals(6, tables.width(), "none, 4 tables, other");
        assertEquals(6, delta[0][tables.other() * Counters.MAX_COMPONENTS + VALUE], "the 6 past the cap");
        assertEquals(6, delta[1][Context.users().other()]);
        assertNotEquals(0, tableBytes(delta, "ns:t3"));
    }

    @Test
    void copiesOfEndedThreadsStayCounted() throws Exception {
        long[][] delta = copiesOnNewThread(() -> {
            long saved = Context.callStart(new Call("carol"));
            Context.regionStart("ns:c", null);
            Copies.copied(0, VALUE, 3);
            Context.restore(saved, null);
        });
        Counter.retireDeadThreads();
        long[][] after = sums();
        assertEquals(3, tableBytes(delta, "ns:c"));
        assertEquals(
                delta[0][Context.tables().id("ns:c") * Counters.MAX_COMPONENTS + VALUE],
                after[0][Context.tables().id("ns:c") * Counters.MAX_COMPONENTS + VALUE],
                "the ended thread's row was retired into the totals");
    }

    private static long tableBytes(long[][] delta, String table) {
        return delta[0][Context.tables().id(table) * Counters.MAX_COMPONENTS + VALUE];
    }

    private static long userBytes(long[][] delta, String user) {
        return delta[1][Context.users().id(user)];
    }

    private static long[][] sums() {
        long[] byTable = new long[Context.tables().width() * Counters.MAX_COMPONENTS];
        long[] byUser = new long[Context.users().width()];
        Context.copyBytes(byTable, byUser);
        return new long[][] {byTable, byUser};
    }

    /** Runs {@code work} on a new thread (a row of the configured widths); the sums' change. */
    private static long[][] copiesOnNewThread(Runnable work) throws Exception {
        long[][] before = sums();
        FreshThread.run(work);
        long[][] after = sums();
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < after[k].length; i++) {
                after[k][i] -= before[k][i];
            }
        }
        return after;
    }
}
