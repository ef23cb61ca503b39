package io.sirocco.pubsub.rtps.discovery;

/** Told of participants found and lost by SPDP, on the participant's RTPS agent thread; must not block. */
public interface ParticipantListener
{
    void onDiscovered(DiscoveredParticipant participant);

    /** {@code why}: "lease expired", "disposed" or "unregistered". */
    void onLost(DiscoveredParticipant participant, String why);
}
