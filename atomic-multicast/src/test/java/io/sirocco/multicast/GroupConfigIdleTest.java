package io.sirocco.multicast;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The predicate thread's default idle policy follows the transport and the host's cores; an explicit one stays. */
class GroupConfigIdleTest
{
    private static final boolean FEW_CORES = Runtime.getRuntime().availableProcessors() < 4;

    @Test
    void shmOnFewCoresParksSoonerOtherTransportsKeepSpinning()
    {
        final GroupConfig shm = GroupConfig.defaults("idle-test");
        // On few cores: sleep on the shm doorbell at once when futexes work, else spin a little before the timed park.
        assertEquals(FEW_CORES ? (io.sirocco.multicast.spi.shm.Futex.available() ? 0 : 50) : 2000, shm.spinPasses());
        assertEquals(FEW_CORES ? 0 : 200, shm.yieldPasses());
        for (final String t : new String[] {"tcp", "local", "mixed"})
        {
            final GroupConfig c = GroupConfig.defaults("idle-test").withTransport(t);
            assertEquals(2000, c.spinPasses(), t);
            assertEquals(200, c.yieldPasses(), t);
            // Back to shm: the default follows again.
            assertEquals(shm.spinPasses(), c.withTransport("shm").spinPasses(), t);
            assertEquals(shm.yieldPasses(), c.withTransport("shm").yieldPasses(), t);
        }
    }

    @Test
    void anExplicitIdlePolicySurvivesAChangeOfTransport()
    {
        final GroupConfig c = GroupConfig.defaults("idle-test").withIdle(7, 3, 1_000).withTransport("tcp")
            .withTransport("shm");
        assertEquals(7, c.spinPasses());
        assertEquals(3, c.yieldPasses());
        assertEquals(1_000, c.maxParkNs());
    }
}
