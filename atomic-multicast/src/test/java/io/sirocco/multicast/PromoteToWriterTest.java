package io.sirocco.multicast;

import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A member that registered a subgroup as READER gains the sending role with the next view, then its sends arrive. */
class PromoteToWriterTest
{
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aPromotedReaderSendsOnceTheNextViewMakesItASender() throws Exception
    {
        try (TestCluster c = new TestCluster(2, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("p", DeliveryMode.ORDERED)), i -> i == 0 ? Role.WRITER_READER : Role.READER))
        {
            final Subgroup reader = c.groups.get(1).subgroup("p");
            final SlotClaim claim = new SlotClaim();
            assertThat(reader.tryClaim(8, claim)).isEqualTo(ClaimResult.NOT_A_WRITER);
            final long viewBefore = c.groups.get(1).view().viewId();

            final Subgroup promoted = c.groups.get(1).promoteToWriter("p");
            assertThat(promoted).isSameAs(reader);
            assertThat(promoted.role()).isEqualTo(Role.WRITER_READER);
            assertThat(promoted.claim(32, claim, 60_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, Senders.word(1, 0));
            claim.commit();

            assertThat(c.groups.get(1).view().viewId()).isGreaterThan(viewBefore);
            assertThat(promoted.sendingEngine()).isNotNull();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && c.recorders.get(0).count < 1)
            {
                Thread.sleep(5);
            }
            assertThat(c.recorders.get(0).list()).hasSize(1);
            assertThat(c.groups.get(1).promoteToWriter("p")).as("promoting twice changes nothing").isSameAs(promoted);
            c.assertHealthy();
        }
    }
}
