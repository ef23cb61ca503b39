package io.sirocco.tests.dds;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the {@code mixed} row transport logged in a process's output: the member id the process joined as
 * (GroupBus), each view's route plan ({@code ... mixed routes: member <id> (host <h>) shm|tcp; ...}) and each closed
 * view's pushes per peer ({@code ... closed, row pushes by route: member <id> (host <h>) shm|tcp <n>; ...}), so that a
 * test can assert which path a pair of processes really used. Stateless.
 */
final class MixedRouteLog
{
    private static final Pattern JOINED = Pattern.compile("joined group '[^']+' as member (\\d+) ");
    private static final Pattern PEER = Pattern.compile("member (\\d+) \\(host [^)]*\\) (shm|tcp)(?: (\\d+))?;");

    /** One peer entry of a route line: its member id, route and pushes (-1 in a plan). */
    record Route(long memberId, String route, long pushes)
    {
    }

    private MixedRouteLog()
    {
    }

    /** @return the member id the process joined its domain's group as. */
    static long memberId(final List<String> output)
    {
        for (final String line : output)
        {
            final Matcher m = JOINED.matcher(line);
            if (m.find())
            {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no 'joined group ... as member' line in:\n" + String.join("\n", output));
    }

    /** @return the peer entries of every route plan (view opened) line. */
    static List<List<Route>> plans(final List<String> output)
    {
        return lines(output, " mixed routes:");
    }

    /** @return the peer entries of every closed-view report line. */
    static List<List<Route>> reports(final List<String> output)
    {
        return lines(output, " closed, row pushes by route:");
    }

    private static List<List<Route>> lines(final List<String> output, final String marker)
    {
        final List<List<Route>> all = new ArrayList<>();
        for (final String line : output)
        {
            final int at = line.indexOf(marker);
            if (at < 0)
            {
                continue;
            }
            final List<Route> routes = new ArrayList<>();
            final Matcher m = PEER.matcher(line.substring(at + marker.length()));
            while (m.find())
            {
                routes.add(new Route(Long.parseLong(m.group(1)), m.group(2),
                    m.group(3) == null ? -1 : Long.parseLong(m.group(3))));
            }
            all.add(routes);
        }
        return all;
    }

    /** @return the pushes to {@code memberId} by {@code route} in one report, 0 if that peer is not in it by it. */
    static long pushes(final List<Route> report, final long memberId, final String route)
    {
        long n = 0;
        for (final Route r : report)
        {
            if (r.memberId() == memberId && r.route().equals(route))
            {
                n += r.pushes();
            }
        }
        return n;
    }
}
