package io.blockscope.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloserTest {

    @Test
    void closesEveryResourceInOrderAndThrowsTheFirstFailureWithTheOthers() {
        List<String> closed = new ArrayList<>();
        IOException first = new IOException("first");
        IllegalStateException second = new IllegalStateException("second");
        Exception thrown = assertThrows(
                IOException.class,
                () -> Closer.closeAll(
                        () -> closed.add("a"),
                        null,
                        () -> {
                            closed.add("b");
                            throw first;
                        },
                        () -> {
                            closed.add("c");
                            throw second;
                        },
                        () -> closed.add("d")));
        assertEquals(List.of("a", "b", "c", "d"), closed, "a failed close leaves no resource open");
        assertSame(first, thrown);
        assertSame(second, thrown.getSuppressed()[0]);
    }
}
