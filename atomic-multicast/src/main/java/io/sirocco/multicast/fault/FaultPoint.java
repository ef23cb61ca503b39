package io.sirocco.multicast.fault;

/** Points of the view change where a fault can be injected. */
public enum FaultPoint
{
    /** A member (shard leader or follower) pushed its ragged-trim values, not yet its {@code TRIM_READY} flag. */
    TRIM_VALUES_PUSHED,

    /** A member pushed its trim values and {@code TRIM_READY}, and has not delivered up to the trim yet. */
    TRIM_READY_PUSHED
}
