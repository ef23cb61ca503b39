package io.sirocco.log.recovery;

import java.nio.ByteBuffer;

import io.sirocco.log.zone.ZoneId;

/**
 * Receives the newest live version of every key of a recovered zone, in ascending (sequence, keyHash) order, on
 * one thread (the recovery's writer role). The payload is {@code buffer[offset, offset + length)}, a view into a
 * segment image that is valid only during the call: copy what must be kept. Deleted keys are not delivered.
 */
public interface RecoveryConsumer
{
    void onEntry(ZoneId zone, long keyHash, long sequence, int epoch, int version, ByteBuffer buffer, int offset,
        int length);

    /** Called once after the last entry. */
    default void onComplete(final RecoveryReport report)
    {
    }

    /**
     * A consumer that receives the same entries again, in the same order, after this one's {@link #onComplete}
     * (the segment images are read once for both), or null. Lets a fast consumer (the history a backup serves) have
     * the whole zone before a slow one (re-replication to new backups) starts.
     */
    default RecoveryConsumer then()
    {
        return null;
    }
}
