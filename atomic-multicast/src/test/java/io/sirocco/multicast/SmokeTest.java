package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class SmokeTest
{
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threeMembersOrdered() throws Exception
    {
        try (TestCluster c = new TestCluster(3, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED).withWindow(4)), i -> Role.WRITER_READER))
        {
            final SlotClaim claim = new SlotClaim();
            for (int n = 0; n < 50; n++)
            {
                for (final Group g : c.groups)
                {
                    assertThat(g.subgroup("a").claim(16, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
                    claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                    claim.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 8, n);
                    claim.commit();
                }
            }
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (c.recorders.stream().anyMatch(r -> r.count < 150) && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertThat(c.recorders.get(0).list()).hasSize(150);
            assertThat(c.recorders.get(1).list()).isEqualTo(c.recorders.get(0).list());
            assertThat(c.recorders.get(2).list()).isEqualTo(c.recorders.get(0).list());
        }
    }
}
