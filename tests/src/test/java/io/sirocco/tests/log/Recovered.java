package io.sirocco.tests.log;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import io.sirocco.log.zone.ZoneId;
import io.sirocco.log.recovery.RecoveryConsumer;
import io.sirocco.log.recovery.RecoveryReport;

/** Collects a recovered zone: sequence to payload copy. */
final class Recovered implements RecoveryConsumer
{
    final Map<Long, byte[]> entries = new HashMap<>();
    RecoveryReport report;

    @Override
    public void onEntry(final ZoneId zone, final long keyHash, final long sequence, final int epoch, final int version,
        final ByteBuffer buffer, final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        buffer.get(offset, copy);
        entries.put(sequence, copy);
    }

    @Override
    public void onComplete(final RecoveryReport report)
    {
        this.report = report;
    }
}
