package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The persisted_num hook holds a view change until every survivor reported persistence of what it delivered. */
class PersistenceHoldTest
{
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void viewChangeWaitsForPersistence() throws Exception
    {
        try (TestCluster c = new TestCluster(4, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("p", DeliveryMode.ORDERED)), i -> Role.WRITER_READER,
            TestCluster.CRASH_SUSPICION_MS))
        {
            for (final Group g : c.groups)
            {
                g.subgroup("p").holdViewChangeForPersistence(true);
            }
            final SlotClaim claim = new SlotClaim();
            assertThat(c.groups.get(0).subgroup("p").claim(32, claim, 10_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, Senders.word(0, 0));
            claim.commit();
            ViewChangeTest.awaitCount(c.recorders.get(1), 1);
            c.groups.get(3).halt();
            // Wait until the survivors wedged (the change is under way), then observe that it does not complete.
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && !c.groups.get(1).subgroup("p").currentEngine().wedged())
            {
                Thread.sleep(5);
            }
            assertThat(c.groups.get(1).subgroup("p").currentEngine().wedged()).isTrue();
            Thread.sleep(500);
            assertThat(c.groups.get(0).view().members()).as("held by persistence").hasSize(4);
            for (int i = 0; i < 3; i++)
            {
                c.groups.get(i).subgroup("p").persisted(Long.MAX_VALUE);
            }
            ViewChangeTest.awaitViewSize(c.groups.subList(0, 3), 3);
            c.groups.remove(3);
        }
    }
}
