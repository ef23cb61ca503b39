package io.sirocco.multicast;

import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WindowWrapTest
{
    @ParameterizedTest(name = "window {0}, {1}, {2}")
    @CsvSource({
        "1, ORDERED, local", "2, ORDERED, local", "100, ORDERED, local",
        "1, UNORDERED, local", "2, UNORDERED, local", "100, UNORDERED, local",
        "1, ORDERED, shm", "2, ORDERED, shm", "100, ORDERED, shm", "2, UNORDERED, shm",
        "2, ORDERED, tcp", "100, ORDERED, tcp", "3, UNORDERED, tcp",
        "2, ORDERED, mixed", "3, UNORDERED, mixed"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void ringWrapsManyTimesWithoutLossOrReorder(final int window, final DeliveryMode mode, final String transport)
        throws Exception
    {
        try (TestCluster c = new TestCluster(3, transport, SpindleOptions.ALL_ON,
            i -> List.of(new SubgroupSpec("w", mode, window, 128, 2048)), i -> Role.WRITER_READER))
        {
            final int[] counts = {400, 400, 400};
            for (final Thread t : Senders.start(c.groups, "w", counts, 2048, 0, window))
            {
                t.join(30_000);
            }
            Senders.awaitDelivered(c.recorders, 1200);
            for (int m = 0; m < 3; m++)
            {
                final List<TestCluster.Delivery> got = c.recorders.get(m).list();
                assertThat(got).hasSize(1200);
                MulticastPropertiesTest.assertPerSenderFifoComplete(got, counts, c);
                if (mode == DeliveryMode.ORDERED)
                {
                    assertThat(got).isEqualTo(c.recorders.get(0).list());
                }
            }
            c.assertHealthy();
        }
    }
}
