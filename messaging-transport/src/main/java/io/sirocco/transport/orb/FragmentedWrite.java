package io.sirocco.transport.orb;

import io.sirocco.transport.Message;
import io.sirocco.transport.flow.FlowControl;

import static io.sirocco.transport.protocol.FrameDescriptor.*;

/**
 * One fragmented write of a message larger than a frame: the export runs once into the thread's
 * {@link RingExporter}, which asks for the next fragment ({@link #nextFragment}) each time it reaches the end of the
 * current one; each fragment is reserved and committed like a whole frame, so small messages keep flowing between
 * them. The first fragment carries the message's total length in its first 4 payload bytes. A failed export
 * zero-fills the rest of the current fragment and marks it padding with the last-fragment flag: the receiver drops
 * the message.
 *
 * <p>Confined to the writing thread for the duration of the write; the ring's {@code largeWriter} flag (held by the
 * caller) makes it the ring's only fragmented write.
 */
final class FragmentedWrite implements NextFragment
{
    private final FrameReservations ring;
    private final RingExporter exporter;
    private final Message message;
    private final int flags;
    private final int requestId;
    private final FlowControl flow;
    private final RingSignals signals;
    private int remaining;
    private boolean started;
    private long reservation;
    private int frame;

    private FragmentedWrite(final FrameReservations ring, final RingExporter exporter, final Message message,
        final int flags, final int requestId, final int payload, final FlowControl flow, final RingSignals signals)
    {
        this.ring = ring;
        this.exporter = exporter;
        this.message = message;
        this.flags = flags;
        this.requestId = requestId;
        this.flow = flow;
        this.signals = signals;
        this.remaining = payload;
    }

    /** Writes the message as fragments; the caller holds the ring's large-writer flag. */
    static void write(final FrameReservations ring, final Message message, final int flags, final int requestId,
        final int payload, final FlowControl flow, final RingSignals signals)
    {
        final RingExporter exporter = RingExporter.forThread();
        final FragmentedWrite write =
            new FragmentedWrite(ring, exporter, message, flags, requestId, payload, flow, signals);
        boolean failed = true;
        Throwable failure = null;
        try
        {
            write.nextFragment();
            message.exportPayload(exporter);
            failed = !write.complete();
            if (failed)
            {
                failure = ExportFailures.sizeMismatch(message, payload, -2);
            }
        }
        catch (final ExportOverflowException e)
        {
            failure = ExportFailures.sizeMismatch(message, payload, -1);
        }
        catch (final RuntimeException | Error e)
        {
            failure = e;
        }
        finally
        {
            try
            {
                write.finish(failed);
            }
            finally
            {
                exporter.release();
            }
        }
        if (failure != null)
        {
            throw ExportFailures.thrown(message, failure);
        }
    }

    /** Reserves the next fragment and aims the exporter at its payload. */
    @Override
    public void nextFragment()
    {
        if (remaining == 0)
        {
            throw ExportOverflowException.INSTANCE; // the export wrote past payloadSize(); finish() pads
        }
        if (frame != 0)
        {
            ring.commit(reservation, frame);
            signals.framesCommitted();
            frame = 0;
        }
        final boolean firstFragment = !started;
        started = true;
        final int room = ring.maxFrameBytes() - HEADER_LENGTH - (firstFragment ? 4 : 0);
        final int chunk = Math.min(room, remaining);
        remaining -= chunk;
        final int payload = chunk + (firstFragment ? 4 : 0);
        final int fragmentFrame = HEADER_LENGTH + payload;
        reservation = ring.reserve(fragmentFrame, flow, signals);
        frame = fragmentFrame;
        final int start = ring.start(reservation);
        final int fragmentFlags = flags | FLAG_FRAGMENT | (firstFragment ? FLAG_FIRST : 0) |
            (remaining == 0 ? FLAG_LAST : 0);
        exporter.wrap(ring.segment(), ring.capacity(), start, start + frame, null);
        exporter.writeByte(MAGIC);
        exporter.writeByte((byte)fragmentFlags);
        exporter.writeByte((byte)message.type());
        exporter.writeByte((byte)message.subtype());
        exporter.writeInt(requestId);
        exporter.writeInt(payload);
        if (firstFragment)
        {
            exporter.writeInt(message.payloadSize());
        }
        exporter.wrap(ring.segment(), ring.capacity(), exporter.position(), start + frame, this);
    }

    /** Ends the write: commits the last fragment; on failure zero-fills and marks the last fragment padding. */
    private void finish(final boolean failed)
    {
        if (failed)
        {
            try
            {
                while (frame != 0 && (exporter.position() != exporter.limit() || remaining > 0))
                {
                    exporter.writeByte((byte)0);
                }
            }
            catch (final ExportOverflowException done)
            {
                // all fragments written
            }
            ring.flags(reservation, (byte)(KIND_PADDING | FLAG_FRAGMENT | FLAG_LAST));
        }
        if (frame != 0)
        {
            ring.commit(reservation, frame);
            signals.framesCommitted();
            frame = 0;
        }
    }

    private boolean complete()
    {
        return remaining == 0 && exporter.position() == exporter.limit();
    }
}
