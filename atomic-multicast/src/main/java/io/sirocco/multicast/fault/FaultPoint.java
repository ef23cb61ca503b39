package io.sirocco.multicast.fault;

/** Points of the view change where a fault can be injected. */
public enum FaultPoint
{
    /**
     * The view-change leader pushed {@code PROPOSAL_MASK} and {@code PROPOSAL_NO} of a proposal (published in the
     * registry first), and has not seen any acknowledgement yet. Subgroup: empty.
     */
    PROPOSAL_PUSHED,

    /** The view-change leader pushed {@code COMMIT_NO}; nobody has drained or trimmed yet. Subgroup: empty. */
    COMMIT_PUSHED,

    /**
     * The view-change leader delivered up to every trim, read the committed proposal and published it as the
     * installed view, and has not withdrawn the removed members nor built the new view yet. Subgroup: empty.
     */
    INSTALLING,

    /** A member (shard leader or follower) pushed its ragged-trim values, not yet its {@code TRIM_READY} flag. */
    TRIM_VALUES_PUSHED,

    /** A member pushed its trim values and {@code TRIM_READY}, and has not delivered up to the trim yet. */
    TRIM_READY_PUSHED
}
