package io.sirocco.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Emulated hosts for tests: {@code n} network namespaces, each with one veth on a private bridge and the address
 * {@code 10.77.<net>.<i+1>/24} (a random {@code net} per instance), loopback up, multicast routed to the veth, and
 * the bridge's multicast snooping off so UDP beacons are flooded. {@link #close()} removes everything, and is meant
 * for a {@code finally} block. Needs root and iproute2 ({@link #unavailableReason()} says why not).
 */
public final class Netns implements AutoCloseable
{
    private final String id = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
    private final int net = 1 + ThreadLocalRandom.current().nextInt(250);
    private final String bridge = "dbr" + id;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> hostVeths = new ArrayList<>();
    private final List<String> nsVeths = new ArrayList<>();
    private boolean bridgeMade;

    /** @return why namespaces cannot be made here, or null when they can. */
    public static String unavailableReason()
    {
        if (!"0".equals(output("id", "-u")))
        {
            return "network-namespace test needs root (ip netns, veth, bridge)";
        }
        if (run("ip", "-V") != 0)
        {
            return "network-namespace test needs iproute2's ip command";
        }
        return null;
    }

    public Netns(final int hosts)
    {
        try
        {
            must("ip", "link", "add", bridge, "type", "bridge");
            bridgeMade = true;
            run("ip", "link", "set", bridge, "type", "bridge", "mcast_snooping", "0");
            must("ip", "link", "set", bridge, "up");
            for (int i = 0; i < hosts; i++)
            {
                final String ns = "dns" + id + i;
                final String hv = "dvh" + id + i;
                final String nv = "dvn" + id + i;
                must("ip", "netns", "add", ns);
                namespaces.add(ns);
                must("ip", "link", "add", hv, "type", "veth", "peer", "name", nv);
                hostVeths.add(hv);
                nsVeths.add(nv);
                must("ip", "link", "set", nv, "netns", ns);
                must("ip", "link", "set", hv, "master", bridge);
                must("ip", "link", "set", hv, "up");
                must("ip", "netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev", nv);
                must("ip", "netns", "exec", ns, "ip", "link", "set", nv, "up");
                must("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
                must("ip", "netns", "exec", ns, "ip", "route", "add", "224.0.0.0/4", "dev", nv);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /** @return host {@code i}'s address (no prefix length). */
    public String address(final int i)
    {
        return "10.77." + net + "." + (i + 1);
    }

    /** @return the name of host {@code i}'s interface, as seen inside its namespace. */
    public String interfaceName(final int i)
    {
        return nsVeths.get(i);
    }

    /** @return the command prefix that runs a program on host {@code i}. */
    public List<String> prefix(final int i)
    {
        return List.of("ip", "netns", "exec", namespaces.get(i));
    }

    /** Cuts host {@code i}'s link ({@code ip link set DEV down} on the bridge side of its veth). */
    public void cutLink(final int i)
    {
        must("ip", "link", "set", hostVeths.get(i), "down");
    }

    /**
     * Takes host {@code i}'s veth off the bridge: its interface stays up (a process can bind it and start), but
     * nothing it sends reaches the other hosts. {@link #attachToBridge} undoes it.
     */
    public void detachFromBridge(final int i)
    {
        must("ip", "link", "set", hostVeths.get(i), "nomaster");
    }

    /** Puts host {@code i}'s veth back on the bridge after {@link #detachFromBridge}. */
    public void attachToBridge(final int i)
    {
        must("ip", "link", "set", hostVeths.get(i), "master", bridge);
    }

    /** Restores host {@code i}'s link after {@link #cutLink}. */
    public void restoreLink(final int i)
    {
        must("ip", "link", "set", hostVeths.get(i), "up");
    }

    @Override
    public void close()
    {
        for (final String ns : namespaces)
        {
            run("ip", "netns", "del", ns);
        }
        for (final String hv : hostVeths)
        {
            run("ip", "link", "del", hv);
        }
        if (bridgeMade)
        {
            run("ip", "link", "del", bridge);
        }
        namespaces.clear();
        hostVeths.clear();
    }

    private static String output(final String... cmd)
    {
        try
        {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) ? out : "";
        }
        catch (final IOException | InterruptedException ex)
        {
            return "";
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
