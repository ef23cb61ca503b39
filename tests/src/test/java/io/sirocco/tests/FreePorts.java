package io.sirocco.tests;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Fixed ports for tests that must name a port before a child process binds it (contact points, kill tests' address
 * maps). A port from {@code new ServerSocket(0)} is in the kernel's ephemeral range (32768-60999 on Linux): once the
 * test closes its probe socket, any outgoing connection on the host may be given that port before the child binds it
 * ("Address already in use", seen once in CI). Ports here come from 10000-17399 instead, which the kernel never hands
 * out on its own and which Sirocco's defaults leave alone (contact ports 7400 + domain, tcp rows 17400-32399); the
 * scan starts at an offset derived from the pid, so test JVMs of parallel runs start far apart, each port is probed
 * by binding it, and no port is handed out twice by one JVM. Thread-safe.
 */
public final class FreePorts
{
    private static final int FIRST = 10_000;
    private static final int COUNT = 7_400;
    private static int cursor = (int)((ProcessHandle.current().pid() * 997) % COUNT);
    private static int handedOut;

    private FreePorts()
    {
    }

    /**
     * A port below the ephemeral range that nothing listens on now.
     *
     * @throws IllegalStateException when every port of the range is taken.
     */
    public static synchronized int next()
    {
        while (handedOut < COUNT)
        {
            final int port = FIRST + cursor;
            cursor = (cursor + 1) % COUNT;
            handedOut++;
            if (bindable(port))
            {
                return port;
            }
        }
        throw new IllegalStateException("no free port left in " + FIRST + "-" + (FIRST + COUNT - 1));
    }

    private static boolean bindable(final int port)
    {
        // The wildcard address conflicts with a listener on any address, loopback included.
        try (ServerSocket probe = new ServerSocket())
        {
            probe.bind(new InetSocketAddress(port));
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
