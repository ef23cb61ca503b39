package io.sirocco.log.membership;

/**
 * Membership events the durable log needs, kept abstract so that atomic-multicast views (or any other failure
 * detector) can feed them later. Called in view order on one thread.
 */
public interface MembershipListener
{
    void onMemberJoined(int member);

    void onMemberLeft(int member);
}
