package io.sirocco.log.replication;

import java.nio.ByteBuffer;

import io.sirocco.log.zone.ZoneId;

/**
 * The owner's own copy of the live entries of the zones it writes (later: the DDS writer's history cache). When a
 * backup of a zone leaves while its owner is still writing, the owner picks a replacement backup and sends it a
 * snapshot of the zone from this source, so the replication factor comes back.
 *
 * <p>Contract: the source must already hold every entry the owner appended (update it before calling
 * {@code ReplicationOwner.append}/{@code delete}; entries in the source that are not appended yet are harmless, the
 * later append only repeats them). {@link #forEachLive} runs on the membership thread while the zone's appends wait,
 * so it must not call back into the {@code ReplicationOwner}.
 */
public interface ZoneSource
{
    /** Streams the newest version of every live (not deleted) key of {@code zone}. */
    void forEachLive(ZoneId zone, EntrySink sink);

    /** Receives one live entry; the payload is read during the call only. */
    interface EntrySink
    {
        void onEntry(long keyHash, long sequence, ByteBuffer payload, int offset, int length);
    }
}
