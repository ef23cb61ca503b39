package io.sirocco.transport.log;

import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RateLimitedWarningTest
{
    @Test
    void shouldCountWarningsWithinTheIntervalAndLogTheNextAfterIt() throws InterruptedException
    {
        final RateLimitedWarning warning = new RateLimitedWarning(NOPLogger.NOP_LOGGER, 50_000_000L);
        warning.warn("bad hello from {}", "peer");
        for (int i = 0; i < 100; i++)
        {
            warning.warn("bad hello from {}", "peer");
        }
        assertEquals(100, warning.skipped());
        Thread.sleep(60);
        warning.warn("bad hello from {}", "peer");
        assertEquals(0, warning.skipped());
    }
}
