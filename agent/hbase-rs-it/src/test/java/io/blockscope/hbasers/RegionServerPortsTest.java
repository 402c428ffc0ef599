package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's client port is picked before HBase starts, so another process can bind it first (a CI
 * run lost a start to a port taken that way). The server then gets a new port and starts on it: its
 * master initializes only once it has reached ZooKeeper there.
 */
class RegionServerPortsTest {

    @Test
    void aZooKeeperPortTakenBeforeHBaseBindsItIsPickedAgain() throws Exception {
        AtomicInteger picks = new AtomicInteger();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                RegionServerProcess server = RegionServerProcess.builder()
                        .zookeeperPorts(() ->
                                picks.getAndIncrement() == 0 ? taken.getLocalPort() : RegionServerProcess.freePort())
                        .start()) {
            assertEquals(2, picks.get(), "ZooKeeper ports picked: the taken one, then a free one");
            assertNotEquals(taken.getLocalPort(), server.zookeeperPort());
            // throws ConnectException unless ZooKeeper listens on the port the server reports
            new Socket(InetAddress.getLoopbackAddress(), server.zookeeperPort()).close();
        }
    }
}
