package io.blockscope.exporter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CommandFailedTest {

    @Test
    void successReturnsAndFailureThrowsWithTheToolsStatus() {
        CommandFailed.check("tool", 0);
        CommandFailed failed = assertThrows(CommandFailed.class, () -> CommandFailed.check("blockscope attach", 3));
        assertEquals(3, failed.status());
        assertEquals("blockscope attach failed with status 3 (the reason is printed above)", failed.getMessage());
        // the java launcher prints it as one line: no frames under it
        assertEquals(0, failed.getStackTrace().length);
    }
}
