package io.sirocco.tests.multicast;

import io.sirocco.examples.cli.mcast.McastMemberParams;
import io.sirocco.examples.cli.mcast.McastMemberResult;
import io.sirocco.examples.cli.mcast.McastProcessCluster;
import io.sirocco.multicast.view.ShmRegistry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three "hosts" in network namespaces joined by veth pairs on a bridge, members over {@code tcp}; the last host's
 * link is cut ({@code ip link set DEV down}) mid-stream. The cut-off member is suspected by heartbeat and removed;
 * the two others install a new view and agree on everything they delivered. Needs root and iproute2; skipped with
 * the reason otherwise. Namespaces, veths and the bridge are always removed.
 */
class NetnsPartitionTest
{
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void cutLinkMemberIsRemovedAndOthersContinue() throws Exception
    {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) || uid() == 0,
            "network-namespace test needs root (ip netns, veth, bridge)");
        Assumptions.assumeTrue(run("ip", "-V") == 0, "network-namespace test needs iproute2's ip command");
        final String id = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        final int net = 200 + ThreadLocalRandom.current().nextInt(50);
        final String bridge = "sbr" + id;
        final List<String> namespaces = new ArrayList<>();
        final List<String> hostVeths = new ArrayList<>();
        final String group = "netns" + id;
        try
        {
            must("ip", "link", "add", bridge, "type", "bridge");
            must("ip", "link", "set", bridge, "up");
            for (int i = 0; i < 3; i++)
            {
                final String ns = "sns" + id + i;
                final String hv = "svh" + id + i;
                final String nv = "svn" + id + i;
                must("ip", "netns", "add", ns);
                namespaces.add(ns);
                must("ip", "link", "add", hv, "type", "veth", "peer", "name", nv);
                hostVeths.add(hv);
                must("ip", "link", "set", nv, "netns", ns);
                must("ip", "link", "set", hv, "master", bridge);
                must("ip", "link", "set", hv, "up");
                must("ip", "netns", "exec", ns, "ip", "addr", "add", "10.231." + net + "." + (i + 1) + "/24", "dev", nv);
                must("ip", "netns", "exec", ns, "ip", "link", "set", nv, "up");
                must("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
            }
            final List<String> endpoints = new ArrayList<>();
            final List<List<String>> prefixes = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                endpoints.add("10.231." + net + "." + (i + 1) + ":17400");
                prefixes.add(List.of("ip", "netns", "exec", namespaces.get(i)));
            }
            final McastMemberParams base = new McastMemberParams(group, 0, 3, "tcp", "all", 64, 100, 30_000,
                true, true, 1, "all", 0, "one", 5, 1000, "");
            final List<McastMemberResult> results = new ArrayList<>();
            final long cutAt = McastProcessCluster.runWith(base, endpoints, prefixes, 1500,
                procs -> must("ip", "link", "set", hostVeths.get(2), "down"), 150, results);
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
            for (final String ns : namespaces)
            {
                run("ip", "netns", "del", ns);
            }
            for (final String hv : hostVeths)
            {
                run("ip", "link", "del", hv);
            }
            run("ip", "link", "del", bridge);
            ShmRegistry.destroy(group);
        }
    }

    private static long uid()
    {
        try
        {
            final Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            return Long.parseLong(out);
        }
        catch (final IOException | InterruptedException | NumberFormatException ex)
        {
            return -1;
        }
    }

    private static int run(final String... cmd)
    {
        try
        {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        }
        catch (final IOException | InterruptedException ex)
        {
            return -1;
        }
    }

    private static void must(final String... cmd)
    {
        final int rc = run(cmd);
        if (rc != 0)
        {
            throw new IllegalStateException("command failed (exit " + rc + "): " + String.join(" ", cmd));
        }
    }
}
