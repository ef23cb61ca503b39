package io.sirocco.transport.orb;

import java.lang.foreign.MemorySegment;

import io.sirocco.transport.flow.FlowControl;

/**
 * The producer side of a ring as a {@link FragmentedWrite} sees it: reserve a frame, commit it, mark it padding.
 * {@link OutgoingRingBuffer} implements it (its class comment gives the memory-ordering contract); any producer
 * thread may call it.
 */
interface FrameReservations
{
    /** The ring's memory (for the exporter). */
    MemorySegment segment();

    int capacity();

    /** Frames up to this size go whole; larger messages are fragmented. */
    int maxFrameBytes();

    /** Reserves {@code frame} bytes and a catch-up slot; waits through the signals while there is no room. */
    long reserve(int frame, FlowControl flow, RingSignals signals);

    /** Commits a reserved frame: moves the consumer front over it, or leaves a catch-up note. */
    void commit(long reservation, int frame);

    /** The ring position a reservation starts at. */
    int start(long reservation);

    /** Overwrites the flags byte of a reserved frame (to turn it into padding). */
    void flags(long reservation, byte flags);
}
