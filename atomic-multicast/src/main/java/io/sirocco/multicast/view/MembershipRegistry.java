package io.sirocco.multicast.view;

import io.sirocco.multicast.Member;
import io.sirocco.multicast.View;

import java.util.List;
import java.util.Optional;

/**
 * Where joiners announce themselves and where leaders publish views: the contact point of a group. The protocol
 * state (suspicions, proposals, acks, commits, trims) travels in the SST; the registry only carries what a member
 * outside the current view must read (who wants in, what the next view is).
 *
 * <p>Implementations: {@link LocalRegistry} (one JVM) and {@link ShmRegistry} (files in the group's private
 * {@code /dev/shm} directory, one host). Every method may be called from any thread.
 */
public interface MembershipRegistry
{
    /** Announces (or updates) a member; idempotent per id. */
    void announce(Member member);

    /** Removes a member's announcement (it left or was excluded). */
    void withdraw(long memberId);

    /** @return every announced member, in announcement order. */
    List<Member> announced();

    /**
     * Publishes a view under a name ({@code "v<id>"} for installed views, {@code "p<proposal>"} for proposals).
     */
    void publish(String key, View view);

    /** @return the view published under this key, if any. */
    Optional<View> read(String key);

    /** @return the installed view with the highest id that contains this member, if any. */
    Optional<View> latestContaining(long memberId);
}
