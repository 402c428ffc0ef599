package io.blockscope.server.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.jvm.GcPauses;
import io.blockscope.server.jvm.ThreadAllocation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PE's allocation column: a real per-operation figure where the JVM counts allocation, and {@code
 * n/a} (never {@code 0}) where it cannot.
 */
class PeAllocationTest {

    private static final int BYTES_PER_OP = 4096;
    private static final long OPS = 200;

    @Test
    void allocationIsCountedPerOperationWhereTheJvmCountsIt() throws Exception {
        StepMeasurement m = runOneStep(ThreadAllocation.platform());
        assertTrue(
                m.allocBytesPerOp() >= BYTES_PER_OP,
                "each operation allocates a " + BYTES_PER_OP + "-byte array; PE saw " + m.allocBytesPerOp());
    }

    /** Before the fix, -1 minus -1 made 0 and the table said {@code 0} B/op for unknown allocation. */
    @Test
    void unknownAllocationIsPrintedAsNotAvailableNotAsZero() throws Exception {
        StepMeasurement m = runOneStep(ThreadAllocation.unsupported());
        assertTrue(Double.isNaN(m.allocBytesPerOp()), "allocation unknown, yet PE says " + m.allocBytesPerOp());
        String line = PeReport.lines(List.of(m)).get(0);
        String[] columns = line.trim().split("\\s+");
        // workload configuration thr ops/s rows/s p50 p99 p99.9 gc# gc-ms/s alloc/op alloc/row gain
        assertEquals("n/a", columns[10], line);
        assertEquals("n/a", columns[11], line);
    }

    private static StepMeasurement runOneStep(ThreadAllocation allocation) throws Exception {
        PeSettings settings = new PeSettings(
                List.of(Workload.RANDOM_READ),
                List.of(2),
                null,
                OPS,
                2,
                java.time.Duration.ZERO,
                1,
                10,
                null,
                1L,
                false);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ProgressLine progress = new ProgressLine(new PrintStream(sink, true, StandardCharsets.UTF_8), false)) {
            PerformanceEvaluation pe =
                    new PerformanceEvaluation(settings, List.of(new AllocatingTarget()), progress, allocation);
            List<StepMeasurement> all = pe.run(step -> {});
            assertEquals(1, all.size());
            assertEquals(OPS, all.get(0).ops);
            return all.get(0);
        }
    }

    /** A target whose every read allocates {@value #BYTES_PER_OP} bytes on the heap, and nothing else. */
    private static final class AllocatingTarget implements ReadTarget {
        static volatile Object escape;

        @Override
        public String readPath() {
            return "n/a";
        }

        @Override
        public String deploy() {
            return "test";
        }

        @Override
        public String url() {
            return null;
        }

        @Override
        public long tableRows() {
            return 1;
        }

        @Override
        public String loadIntoCache() {
            return "nothing to load";
        }

        @Override
        public Session newSession(WorkloadShape shape, long seed) {
            return new Session() {
                @Override
                public long execute() {
                    escape = new byte[BYTES_PER_OP];
                    return 1;
                }

                @Override
                public long rowsReturned() {
                    return 0;
                }
            };
        }

        @Override
        public CostSnapshot cost(boolean settleGc) {
            return new CostSnapshot(GcPauses.Reading.empty("none"), -1, 0, 0);
        }

        @Override
        public boolean countsWorkerAllocation() {
            return true;
        }

        @Override
        public long outstandingBlockReferences() {
            return 0;
        }

        @Override
        public void close() {}
    }
}
