package io.sirocco.tests.multicast;

import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.examples.cli.mcast.McastProcessCluster;
import io.sirocco.multicast.view.ShmRegistry;
import io.sirocco.tests.Netns;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three "hosts" in network namespaces joined by veth pairs on a bridge, members over {@code tcp}; the last host's
 * link is cut ({@code ip link set DEV down}, {@link Netns#cutLink}) mid-stream. The cut-off member is suspected by heartbeat and removed;
 * the two others install a new view and agree on everything they delivered. Needs root and iproute2; skipped with
 * the reason otherwise. Namespaces, veths and the bridge are always removed.
 */
class NetnsPartitionTest
{
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void cutLinkMemberIsRemovedAndOthersContinue() throws Exception
    {
        final String unavailable = Netns.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        final String group = "netns" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        try (Netns hosts = new Netns(3))
        {
            final List<String> endpoints = new ArrayList<>();
            final List<List<String>> prefixes = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                endpoints.add(hosts.address(i) + ":17400");
                prefixes.add(hosts.prefix(i));
            }
            // The namespaces share one /dev/shm, so the membership registry reaches the cut-off member although its
            // link is down: with rejoin on it announces itself again, the leader (seeing its pid alive) takes it
            // back, and every such view stalls until it is suspected again (a known limit, docs/multicast.md). Real
            // hosts share no registry file; rejoin across a cut link and its repair is NetnsRejoinTest's subject.
            final List<String> cutHost = new ArrayList<>(prefixes.get(2));
            cutHost.addAll(List.of("env", "JAVA_TOOL_OPTIONS=-Dsirocco.multicast.rejoin=false"));
            prefixes.set(2, cutHost);
            final McastMemberParams base = new McastMemberParams(group, 0, 3, "tcp", "all", 64, 100, 30_000,
                true, true, 1, "all", 0, "one", 5, 1000, "");
            final List<McastMemberResult> results = new ArrayList<>();
            final long cutAt = McastProcessCluster.runWith(base, endpoints, prefixes, 1500,
                procs -> hosts.cutLink(2), 150, results);
            assertThat(cutAt).isPositive();
            assertThat(results).hasSize(2);
            final McastMemberResult a = results.get(0);
            final McastMemberResult b = results.get(1);
            assertThat(a.finalViewSize()).as("the cut-off member was removed").isEqualTo(2);
            assertThat(b.finalViewSize()).isEqualTo(2);
            assertThat(a.digest()).as("member finished").isNotZero();
            assertThat(a.delivered()).as("the cut happened mid-stream").isLessThan(3 * base.messages());
            assertThat(b.delivered()).isEqualTo(a.delivered());
            assertThat(b.digest()).as("identical delivered sequences").isEqualTo(a.digest());
        }
        finally
        {
            ShmRegistry.destroy(group);
        }
    }
}
