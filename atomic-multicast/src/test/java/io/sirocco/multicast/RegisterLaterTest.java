package io.sirocco.multicast;

import io.sirocco.multicast.model.ClaimResult;
import io.sirocco.multicast.model.DeliveryMode;
import io.sirocco.multicast.model.Role;
import io.sirocco.multicast.model.SlotClaim;
import io.sirocco.multicast.model.SubgroupSpec;
import io.sirocco.multicast.model.View;
import io.sirocco.multicast.smc.SpindleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A subgroup registered after the join (a new DDS writer/reader) arrives with a view change and then carries data. */
class RegisterLaterTest
{
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void laterRegistrationTakesEffectWithTheNextView() throws Exception
    {
        try (TestCluster c = new TestCluster(3, "local", SpindleOptions.ALL_ON,
            i -> List.of(SubgroupSpec.of("a", DeliveryMode.ORDERED)), i -> Role.WRITER_READER))
        {
            final long firstView = c.groups.get(0).view().viewId();
            final TestCluster.Recorder[] recs = new TestCluster.Recorder[3];
            final Subgroup[] handles = new Subgroup[3];
            for (int i = 0; i < 3; i++)
            {
                recs[i] = new TestCluster.Recorder();
                handles[i] = c.groups.get(i).register(new Group.SubgroupRegistration(
                    SubgroupSpec.of("b", DeliveryMode.ORDERED), i == 0 ? Role.WRITER : Role.READER, recs[i]));
            }
            final SlotClaim claim = new SlotClaim();
            assertThat(handles[0].claim(32, claim, 60_000_000_000L)).isEqualTo(ClaimResult.OK);
            Senders.fill(claim.buffer(), 32, Senders.word(0, 0));
            claim.commit();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && (recs[1].count < 1 || recs[2].count < 1))
            {
                Thread.sleep(5);
            }
            assertThat(recs[1].list()).hasSize(1).isEqualTo(recs[2].list());
            assertThat(c.groups.get(0).view().viewId()).isGreaterThan(firstView);
            assertThat(c.groups.get(0).view().subgroups()).extracting(View.SubgroupInfo::name).contains("a", "b");
            assertThat(handles[1].tryClaim(8, claim)).isEqualTo(ClaimResult.NOT_A_WRITER);
            c.assertHealthy();
        }
    }
}
