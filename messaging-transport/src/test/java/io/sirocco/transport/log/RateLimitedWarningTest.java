package io.sirocco.transport.log;

import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RateLimitedWarningTest
{
    @Test
    void shouldCountTheWarningsWithinTheInterval()
    {
        final RateLimitedWarning warning = new RateLimitedWarning(NOPLogger.NOP_LOGGER, 3_600_000_000_000L);
        warning.warn("bad hello from {}", "peer");
        for (int i = 0; i < 100; i++)
        {
            warning.warn("bad hello from {}", "peer");
        }
        assertEquals(100, warning.skipped());
    }

    @Test
    void shouldLogAgainOnceTheIntervalPassedAndResetTheCount() throws InterruptedException
    {
        final RateLimitedWarning warning = new RateLimitedWarning(NOPLogger.NOP_LOGGER, 1_000_000L);
        warning.warn("bad hello from {}", "peer");
        Thread.sleep(5);
        warning.warn("bad hello from {}", "peer");
        assertEquals(0, warning.skipped());
    }
}
