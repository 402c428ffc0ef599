package io.blockscope.agenttest.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Drives {@link FakeCache#lookup} and {@link FakeCache#releaseBlock} for a profile whose hits are
 * checkouts only on shared blocks and whose releases count only for checked-out blocks: every
 * lookup of {@code args[0]} keys, a release of every block it got (heap ones too, which must not
 * count), a release of a block read from "disk" per lookup, and one shared block kept out. Prints
 * {@code ready port=N} and waits for stdin to close.
 */
public final class CheckoutDriver {

    public static void main(String[] args) throws Exception {
        int lookups = Integer.parseInt(args[0]);
        FakeCache cache = new FakeCache();
        for (int key = 0; key < lookups; key++) {
            FakeCache.FakeBlock block = cache.lookup(key);
            if (block != null) {
                cache.releaseBlock(block);
            }
            cache.releaseBlock(cache.read());
        }
        FakeCache.FakeBlock kept = cache.lookup(2);
        System.out.println("ready port=" + AgentState.port() + " kept=" + kept.shared());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            // until the test closes stdin or ends the process
        }
    }
}
