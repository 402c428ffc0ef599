package io.blockscope.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Reading a call's user the way HBase keeps it: a protected field of the call's superclass. */
class CallUsersTest {

    abstract static class User {
        abstract String getShortName();
    }

    static final class SecureUser extends User {
        private final String name;

        SecureUser(String name) {
            this.name = name;
        }

        @Override
        String getShortName() {
            return name;
        }
    }

    static class ServerCall {
        protected final User user;

        ServerCall(User user) {
            this.user = user;
        }
    }

    static final class NettyServerCall extends ServerCall {
        NettyServerCall(User user) {
            super(user);
        }
    }

    @Test
    void readsTheUserFieldOfTheCallsSuperclassThenItsName() {
        CallUsers users = new CallUsers("user.getShortName()");
        assertEquals("alice", users.name(new NettyServerCall(new SecureUser("alice"))));
        assertEquals("bob", users.name(new ServerCall(new SecureUser("bob"))), "another call class");
        assertNull(users.name(new NettyServerCall(null)), "a call without a user (simple auth off)");
        assertNull(users.failure());
    }

    @Test
    void aPathThatDoesNotFitTurnsTheReaderOffAndSaysWhy() {
        CallUsers users = new CallUsers("owner.getShortName()");
        assertNull(users.name(new NettyServerCall(new SecureUser("alice"))));
        assertNotNull(users.failure());
        assertNull(users.name(new NettyServerCall(new SecureUser("alice"))));
    }
}
