package io.sirocco.multicast;

import io.sirocco.multicast.model.View;

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
     * This member is no longer part of the group (it was suspected by the others, the group failed, or it left to merge
     * into another group of this name). With rejoin on ({@code sirocco.multicast.rejoin}, the default) every subgroup
     * answers {@link ClaimResult#VIEW_CHANGING} until a view takes the member back in ({@link #onRejoined}); with it
     * off, {@link ClaimResult#CLOSED} for good.
     *
     * @param reason what happened.
     */
    default void onExcluded(final String reason)
    {
    }

    /**
     * A view took this member back in after {@link #onExcluded}; {@link #onViewInstalled} follows at once with every
     * member of {@code view} as joined (this member starts from an empty history of the group).
     *
     * @param view the view.
     */
    default void onRejoined(final View view)
    {
    }
}
