package io.sirocco.multicast;

import java.util.List;

/**
 * View-change events, called on the group's predicate thread right after a view is installed (before any message of
 * the new view is delivered). Must be fast.
 */
public interface MembershipListener
{
    /**
     * @param view   the new view.
     * @param joined ids of members that were not in the previous view (all members for the first view).
     * @param left   ids of members of the previous view that are gone (failed, left or excluded).
     */
    void onViewInstalled(View view, List<Long> joined, List<Long> left);

    /**
     * This member is no longer part of the group (it was suspected by the others, or the group failed); every
     * subgroup now answers {@link ClaimResult#CLOSED}.
     *
     * @param reason what happened.
     */
    default void onExcluded(final String reason)
    {
    }
}
