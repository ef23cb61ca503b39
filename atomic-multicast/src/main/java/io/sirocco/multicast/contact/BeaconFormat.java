package io.sirocco.multicast.contact;

import java.util.regex.Pattern;

/**
 * The text of a UDP discovery beacon, {@code SIROCCO-BEACON 1 <group> <memberId> <host:port> <inView>}, followed in a
 * view by {@code <size> <leaderId>}, and its validation. Beacons come from anyone on the link: a datagram is taken
 * only if every field is well formed (a positive member id, a plausible {@code host:port} with a port in 1-65535, a
 * 0/1 flag, a group identity only in a view), so that a forged or garbled beacon never reaches the heard-members map
 * or a connect. Stateless.
 */
final class BeaconFormat
{
    static final String MAGIC = "SIROCCO-BEACON";
    /** Longest datagram a valid beacon can be (a 255-character host and every number at its longest fit). */
    static final int MAX_LENGTH = 512;
    /** A host name or address literal: letters, digits and {@code . - _ : [ ] %}, at most 255 characters. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%\\[\\]-]{1,255}");

    /**
     * A beacon as received.
     *
     * @param group the sender's group identity when it is in a view, else null.
     */
    record Beacon(long memberId, String contact, boolean inView, GroupIdentity group)
    {
    }

    private BeaconFormat()
    {
    }

    static String encode(final String groupName, final long memberId, final String contact, final GroupIdentity group)
    {
        return MAGIC + " 1 " + groupName + " " + memberId + " " + contact + " "
            + (group != null ? "1 " + group.encode() : "0");
    }

    /**
     * @param text      a received datagram's text.
     * @param groupName the group this member listens for.
     * @return the beacon, or null when the text is not a valid beacon of this group.
     */
    static Beacon parse(final String text, final String groupName)
    {
        if (text.length() > MAX_LENGTH)
        {
            return null;
        }
        final String[] f = text.trim().split(" ");
        if ((f.length != 6 && f.length != 8) || !MAGIC.equals(f[0]) || !"1".equals(f[1]) || !groupName.equals(f[2]))
        {
            return null;
        }
        final long id = positiveLong(f[3]);
        final boolean inView = "1".equals(f[5]);
        if (id <= 0 || !validContact(f[4]) || !(inView || "0".equals(f[5])) || (f.length == 8) != inView)
        {
            return null;
        }
        final GroupIdentity group = inView ? GroupIdentity.decode(f[6] + " " + f[7]) : null;
        if (inView && (group == null || group.leaderId() <= 0))
        {
            return null;
        }
        return new Beacon(id, f[4], inView, group);
    }

    /** Whether {@code hostPort} is {@code <host>:<port>} with a plausible host and a port in 1-65535. */
    static boolean validContact(final String hostPort)
    {
        final int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1 || hostPort.length() - colon > 6)
        {
            return false;
        }
        final long port = positiveLong(hostPort.substring(colon + 1));
        return port >= 1 && port <= 65_535 && HOST.matcher(hostPort.substring(0, colon)).matches();
    }

    /** @return the value, or -1 when the text is not a positive decimal long. */
    private static long positiveLong(final String text)
    {
        if (text.isEmpty() || text.length() > 19)
        {
            return -1;
        }
        for (int i = 0; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return -1;
            }
        }
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }
}
