package io.sirocco.examples.cli.mcast;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one benchmark/test member process needs, passed as {@code key=value} arguments.
 *
 * @param group        group name.
 * @param index        this member's position (0 = contact).
 * @param members      members in the first view.
 * @param transport    row transport: shm, tcp or local.
 * @param senders      all, half or one.
 * @param size         message size in bytes.
 * @param window       window size.
 * @param messages     messages per sender (per active subgroup).
 * @param batching     Spindle batching on/off.
 * @param nulls        null-sends on/off.
 * @param subgroups    number of subgroups.
 * @param active       one or all: which subgroups carry traffic.
 * @param delayUs      busy-wait after each send of a delayed sender.
 * @param delayed      one or half: which senders are delayed.
 * @param heartbeatMs  heartbeat period.
 * @param suspicionMs  suspicion timeout.
 * @param endpoint     tcp endpoint of this member (host:port) or empty.
 * @param delayMode    how a delayed sender waits: {@code spin} (busy-wait with a spin hint, the paper's) or
 *                     {@code yield} (busy-wait that yields the core between clock reads).
 */
public record McastMemberParams(
    String group,
    int index,
    int members,
    String transport,
    String senders,
    int size,
    int window,
    long messages,
    boolean batching,
    boolean nulls,
    int subgroups,
    String active,
    long delayUs,
    String delayed,
    long heartbeatMs,
    long suspicionMs,
    String endpoint,
    String delayMode)
{
    /** Parameters with the paper's spinning delay. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public McastMemberParams(final String group, final int index, final int members, final String transport,
        final String senders, final int size, final int window, final long messages, final boolean batching,
        final boolean nulls, final int subgroups, final String active, final long delayUs, final String delayed,
        final long heartbeatMs, final long suspicionMs, final String endpoint)
    {
        this(group, index, members, transport, senders, size, window, messages, batching, nulls, subgroups, active,
            delayUs, delayed, heartbeatMs, suspicionMs, endpoint, "spin");
    }

    public boolean isSender(final int i)
    {
        return switch (senders)
        {
            case "one" -> i == 0;
            case "half" -> i < (members + 1) / 2;
            default -> true;
        };
    }

    public int senderCount()
    {
        int n = 0;
        for (int i = 0; i < members; i++)
        {
            n += isSender(i) ? 1 : 0;
        }
        return n;
    }

    /** Delayed senders: the last sender (one) or the later half of the senders (half); none when delayUs is 0. */
    public boolean isDelayed(final int i)
    {
        return delayUs > 0 && isDesignatedDelayed(i);
    }

    /**
     * The senders {@code --delayed} designates, whether or not a delay is set: the "others" of the delayed-sender
     * experiment are the remaining senders, so an undelayed run measures the same senders as its delayed twin.
     */
    public boolean isDesignatedDelayed(final int i)
    {
        if (!isSender(i))
        {
            return false;
        }
        final int s = senderCount();
        return "half".equals(delayed) ? i >= s - s / 2 : i == s - 1;
    }

    public int activeSubgroups()
    {
        return "one".equals(active) ? 1 : subgroups;
    }

    public McastMemberParams withIndex(final int i, final String ep)
    {
        return new McastMemberParams(group, i, members, transport, senders, size, window, messages, batching, nulls,
            subgroups, active, delayUs, delayed, heartbeatMs, suspicionMs, ep, delayMode);
    }

    public List<String> toArgs()
    {
        final List<String> a = new ArrayList<>();
        a.add("group=" + group);
        a.add("index=" + index);
        a.add("members=" + members);
        a.add("transport=" + transport);
        a.add("senders=" + senders);
        a.add("size=" + size);
        a.add("window=" + window);
        a.add("messages=" + messages);
        a.add("batching=" + batching);
        a.add("nulls=" + nulls);
        a.add("subgroups=" + subgroups);
        a.add("active=" + active);
        a.add("delayUs=" + delayUs);
        a.add("delayed=" + delayed);
        a.add("heartbeatMs=" + heartbeatMs);
        a.add("suspicionMs=" + suspicionMs);
        a.add("endpoint=" + endpoint);
        a.add("delayMode=" + delayMode);
        return a;
    }

    public static McastMemberParams fromArgs(final String[] args)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        for (final String s : args)
        {
            final int eq = s.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException("expected key=value, got '" + s + "'");
            }
            m.put(s.substring(0, eq), s.substring(eq + 1));
        }
        return new McastMemberParams(m.get("group"), Integer.parseInt(m.get("index")),
            Integer.parseInt(m.get("members")), m.get("transport"), m.get("senders"), Integer.parseInt(m.get("size")),
            Integer.parseInt(m.get("window")), Long.parseLong(m.get("messages")),
            Boolean.parseBoolean(m.get("batching")), Boolean.parseBoolean(m.get("nulls")),
            Integer.parseInt(m.get("subgroups")), m.get("active"), Long.parseLong(m.get("delayUs")), m.get("delayed"),
            Long.parseLong(m.get("heartbeatMs")), Long.parseLong(m.get("suspicionMs")),
            m.getOrDefault("endpoint", ""), m.getOrDefault("delayMode", "spin"));
    }
}
