package io.sirocco.tests.dds;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A publisher and two subscriber processes on one host over the shm transport (zero-config discovery through the
 * per-domain registry), in the shared {@link KillScenario}: killing a subscriber (SIGKILL) does not stop the
 * publisher and the other subscriber loses nothing; killing the publisher makes the readers see NOT_ALIVE_NO_WRITERS
 * (the surviving subscriber is then alone in a two-member view, so the multicast layer excludes it as a minority, and
 * the DDS layer reports every remote writer gone).
 */
@Timeout(240)
class MultiProcessShmTest
{
    private static final KillScenario.Host SAME_HOST = new KillScenario.Host(List.of(),
        List.of("-Dsirocco.dds.transport=shm", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));

    @Test
    void killedSubscriberHurtsNobodyAndKilledPublisherLeavesNoWriters() throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        KillScenario.run(domain, SAME_HOST, SAME_HOST, SAME_HOST, List.of());
    }
}
