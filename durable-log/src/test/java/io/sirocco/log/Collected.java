package io.sirocco.log;

import io.sirocco.log.zone.ZoneId;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;

/** Test consumer: copies every recovered entry, keyed "keyHash/sequence". */
final class Collected implements RecoveryConsumer
{
    final Map<String, byte[]> entries = new LinkedHashMap<>();
    final List<Long> sequences = new ArrayList<>();
    RecoveryReport report;
    int duplicates;

    static String key(final long keyHash, final long sequence)
    {
        return Long.toHexString(keyHash) + "/" + sequence;
    }

    @Override
    public void onEntry(final ZoneId zone, final long keyHash, final long sequence, final int epoch,
        final int version, final ByteBuffer buffer, final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        buffer.get(offset, copy);
        if (entries.put(key(keyHash, sequence), copy) != null)
        {
            duplicates++;
        }
        sequences.add(sequence);
    }

    @Override
    public void onComplete(final RecoveryReport report)
    {
        this.report = report;
    }
}
