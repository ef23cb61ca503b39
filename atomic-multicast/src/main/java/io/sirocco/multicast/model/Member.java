package io.sirocco.multicast.model;

import java.util.ArrayList;
import java.util.List;

/**
 * A member as the registry and the views know it: identity, where it runs, and what it registered.
 *
 * @param memberId      unique id in the group.
 * @param host          host identity ({@link HostIdentity}): members with the same one can share memory.
 * @param pid           process id (same-host crash detection through {@link ProcessHandle#onExit()}).
 * @param endpoint      transport address for tcp ({@code host:port}), empty if none.
 * @param version       bumped when the member changes its registrations; a change triggers a view change.
 * @param registrations the subgroups it registered, with its role in each.
 * @param contact       where its membership registry listens ({@code host:port}) when the registry is served over
 *                      the network ({@code io.sirocco.multicast.contact.NetRegistry}), empty otherwise.
 */
public record Member(long memberId, String host, long pid, String endpoint, long version,
    List<Registration> registrations, String contact)
{
    /** A member without a network registry address (shared-file or in-JVM registries). */
    public Member(final long memberId, final String host, final long pid, final String endpoint, final long version,
        final List<Registration> registrations)
    {
        this(memberId, host, pid, endpoint, version, registrations, "");
    }

    /**
     * Interest in one subgroup.
     *
     * @param spec subgroup shape.
     * @param role writer, reader or both.
     */
    public record Registration(SubgroupSpec spec, Role role)
    {
    }

    /**
     * @return this host's identity as members see it ({@link HostIdentity#local()}): system property
     * {@code sirocco.multicast.host} if set (tests that put "hosts" in network namespaces of one machine), else the host
     * name plus a hash of the boot id, pid namespace and shm root.
     */
    public static String localHost()
    {
        return HostIdentity.local();
    }

    public Member
    {
        registrations = List.copyOf(registrations);
        contact = contact == null ? "" : contact;
    }

    /**
     * One-line text form used by the registries (fields separated by ';', registrations by ','); the registry
     * address, when there is one, is a seventh field.
     */
    public String encode()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(memberId).append(';').append(host).append(';').append(pid).append(';').append(endpoint)
            .append(';').append(version).append(';');
        for (int i = 0; i < registrations.size(); i++)
        {
            final Registration r = registrations.get(i);
            final SubgroupSpec s = r.spec();
            if (i > 0)
            {
                sb.append(',');
            }
            sb.append(s.name()).append('|').append(s.mode()).append('|').append(s.windowSize()).append('|')
                .append(s.slotSizeBytes()).append('|').append(s.maxMessageBytes()).append('|').append(r.role());
        }
        if (!contact.isEmpty())
        {
            sb.append(';').append(contact);
        }
        return sb.toString();
    }

    /**
     * Parses {@link #encode()}'s form.
     *
     * @param line the text.
     * @return the member.
     * @throws IllegalArgumentException with the offending text when malformed.
     */
    public static Member decode(final String line)
    {
        try
        {
            final String[] f = line.strip().split(";", -1);
            final List<Registration> regs = new ArrayList<>();
            if (f.length > 5 && !f[5].isEmpty())
            {
                for (final String r : f[5].split(","))
                {
                    final String[] p = r.split("\\|");
                    regs.add(new Registration(new SubgroupSpec(p[0], DeliveryMode.valueOf(p[1]),
                        Integer.parseInt(p[2]), Integer.parseInt(p[3]), Integer.parseInt(p[4])), Role.valueOf(p[5])));
                }
            }
            return new Member(Long.parseLong(f[0]), f[1], Long.parseLong(f[2]), f[3], Long.parseLong(f[4]), regs,
                f.length > 6 ? f[6] : "");
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException("malformed member record: '" + line + "'", ex);
        }
    }
}
