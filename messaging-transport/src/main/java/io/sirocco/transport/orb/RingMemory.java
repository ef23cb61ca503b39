package io.sirocco.transport.orb;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The native memory of one {@link OutgoingRingBuffer} and the two reusable views its consumer aims at the readable
 * bytes for a gathering write. Created once per ring by the first producer and published with a volatile store;
 * the views are the consumer's alone (it holds the ring's consumer lock).
 */
final class RingMemory
{
    static final ByteBuffer[] NO_PIECES = new ByteBuffer[0];

    final MemorySegment segment;
    final ByteBuffer first;
    final ByteBuffer second;
    final ByteBuffer[] pieces;

    RingMemory(final MemorySegment segment)
    {
        this.segment = segment;
        final ByteBuffer view = segment.asByteBuffer();
        this.first = view.duplicate();
        this.second = view.duplicate();
        this.pieces = new ByteBuffer[] {first, second};
    }
}
