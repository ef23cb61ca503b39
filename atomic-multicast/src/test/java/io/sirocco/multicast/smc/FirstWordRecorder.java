package io.sirocco.multicast.smc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import io.sirocco.multicast.model.DeliveryHandler;

/** Test handler: records the first long of every delivered payload, in delivery order (one thread delivers). */
final class FirstWordRecorder implements DeliveryHandler
{
    final List<Long> values = new ArrayList<>();

    @Override
    public void onMessage(final long senderId, final int senderRank, final long index, final long seq,
        final MemorySegment payload, final int length)
    {
        values.add(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
    }
}
