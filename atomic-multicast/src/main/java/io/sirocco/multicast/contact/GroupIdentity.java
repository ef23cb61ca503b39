package io.sirocco.multicast.contact;

import io.sirocco.multicast.model.View;

/**
 * What a member says about the group it is in when it greets members of other groups (hello bodies and beacons), and
 * the rule that decides which of two groups of the same name survives a merge. Two groups of one name exist when
 * members could not hear each other at start-up (each side formed its own) or when a member excluded by a partition
 * formed its own group meanwhile; once they hear each other, the members of the losing group leave it and join the
 * survivor.
 *
 * <p><b>The rule</b> (deterministic, both sides compute the same answer from the same two identities): the larger
 * group survives; at equal size the one whose leader (the member of rank 0 of its installed view) has the lower member
 * id. Identities with the same leader are the same group seen at different views and never merge. Immutable.
 *
 * @param size     members of the group's installed view.
 * @param leaderId member id of rank 0 of that view.
 */
public record GroupIdentity(int size, long leaderId)
{
    public GroupIdentity
    {
        if (size <= 0)
        {
            throw new IllegalArgumentException("a group has at least one member: " + size);
        }
    }

    /** @return the identity of the group whose installed view this is. */
    public static GroupIdentity of(final View view)
    {
        return new GroupIdentity(view.members().size(), view.members().get(0).memberId());
    }

    /**
     * @param other another group of the same name.
     * @return whether this group survives a merge with {@code other} (false for the same group).
     */
    public boolean survivesOver(final GroupIdentity other)
    {
        if (leaderId == other.leaderId)
        {
            return false;
        }
        return size > other.size || (size == other.size && leaderId < other.leaderId);
    }

    /** @return the wire form ({@code "<size> <leaderId>"}), carried in hello bodies and beacons. */
    public String encode()
    {
        return size + " " + leaderId;
    }

    /**
     * @param text a wire form, or an empty string (a member outside any view).
     * @return the identity, or null for an empty or malformed text (older members send none).
     */
    public static GroupIdentity decode(final String text)
    {
        final String[] f = text.trim().split(" ");
        if (f.length != 2)
        {
            return null;
        }
        try
        {
            return new GroupIdentity(Integer.parseInt(f[0]), Long.parseLong(f[1]));
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }
}
