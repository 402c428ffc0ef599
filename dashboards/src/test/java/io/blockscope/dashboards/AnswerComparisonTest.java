package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How ThanosTopologyIT decides that Thanos Query and one Prometheus gave the same answer. */
class AnswerComparisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AnswerComparison SAME = new AnswerComparison(0.10, 1e-3, Set.of("replica"));

    @Test
    void sameSeriesWithinToleranceIgnoringTheReplicaLabel() throws Exception {
        AnswerComparison.Outcome outcome = SAME.compare(
                vector("{\"cluster\":\"east\",\"instance\":\"a\"}", "100"),
                vector("{\"cluster\":\"east\",\"instance\":\"a\",\"replica\":\"1\"}", "95"));
        assertEquals(List.of(), outcome.differences());
        assertEquals(1, outcome.series());
        assertEquals(0.05, outcome.worstRelative(), 1e-9);
    }

    @Test
    void aValueOutsideTheToleranceIsADifference() throws Exception {
        AnswerComparison.Outcome outcome =
                SAME.compare(vector("{\"instance\":\"a\"}", "100"), vector("{\"instance\":\"a\"}", "200"));
        assertEquals(1, outcome.differences().size(), outcome.toString());
    }

    @Test
    void aDoubleCountedPairIsADifference() throws Exception {
        // A sum over both replicas of a pair: twice the single Prometheus' value.
        assertEquals(
                1,
                SAME.compare(vector("{}", "2"), vector("{}", "4")).differences().size());
    }

    @Test
    void nearZeroValuesGetTheAbsoluteAllowance() throws Exception {
        assertEquals(
                List.of(),
                SAME.compare(vector("{\"instance\":\"a\"}", "0.0001"), vector("{\"instance\":\"a\"}", "0.0005"))
                        .differences());
    }

    @Test
    void otherOrMissingSeriesAreADifference() throws Exception {
        assertEquals(
                1,
                SAME.compare(vector("{\"cluster\":\"east\"}", "1"), vector("{\"cluster\":\"west\"}", "1"))
                        .differences()
                        .size());
        assertEquals(
                1,
                SAME.compare(vector("{\"cluster\":\"east\"}", "1"), JSON.readTree("[]"))
                        .differences()
                        .size());
    }

    @Test
    void twoReplicasLeftUndeduplicatedAreRefused() throws Exception {
        JsonNode both = JSON.readTree("[{\"metric\":{\"replica\":\"0\"},\"value\":[1,\"1\"]},"
                + "{\"metric\":{\"replica\":\"1\"},\"value\":[1,\"1\"]}]");
        AssertionError e = assertThrows(AssertionError.class, () -> SAME.byLabels(both));
        assertTrue(e.getMessage().contains("two series"), e.getMessage());
    }

    private static JsonNode vector(String labels, String value) throws Exception {
        return JSON.readTree("[{\"metric\":" + labels + ",\"value\":[1,\"" + value + "\"]}]");
    }
}
