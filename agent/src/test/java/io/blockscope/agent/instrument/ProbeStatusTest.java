package io.blockscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.profile.Profiles;
import org.junit.jupiter.api.Test;

class ProbeStatusTest {

    @Test
    void aProbeOffIsCoveredOnlyWhileAnAlternativeIsOn() {
        ProbeStatus status = new ProbeStatus(Profiles.load("hbase2"));
        int ret = status.names().indexOf("block-return");
        int release = status.names().indexOf("block-release");
        int get = status.names().indexOf("block-get-l2");
        assertFalse(status.covered(ret), "both off: block-return is a gap (nothing gives blocks back)");
        assertFalse(status.covered(release));

        status.applied(release, "org.apache.hadoop.hbase.io.hfile.HFileBlock");
        assertTrue(status.covered(ret), "block-release on: block-return is not needed");
        assertFalse(status.covered(release), "an enabled probe is never covered");

        status.applied(get, "org.apache.hadoop.hbase.io.hfile.bucket.BucketCache");
        assertFalse(status.covered(get));
    }
}
