package io.sirocco.transport.incoming;

import java.lang.foreign.MemorySegment;

import io.sirocco.transport.protocol.FrameDescriptor;
import io.sirocco.transport.spi.IncomingBuffer;

/**
 * Per-connection parsing state of the coordinator (coordinator thread only, plain fields): a header split across
 * buffers, a message split across buffers (copied into one assembly buffer), and a fragmented large message being
 * reassembled.
 */
public final class ReceiveState
{
    final byte[] header = new byte[FrameDescriptor.HEADER_LENGTH];
    final MemorySegment headerSegment = MemorySegment.ofArray(header);
    int headerFill;
    /** Bytes of a padding frame still to skip. */
    int skipRemaining;

    /** A whole frame's payload being completed across buffers. */
    IncomingBuffer split;
    int splitFill;
    int splitLength;
    int splitFlags;
    int splitType;
    int splitSubtype;
    int splitRequestId;

    /** A fragmented message being reassembled. */
    IncomingBuffer assembly;
    int assemblyFill;
    int assemblyLength;
    boolean assemblyFirstPending;

    long streamBytes;

    /** True if the stream stopped inside a frame. */
    boolean midFrame()
    {
        return headerFill > 0 || split != null || assembly != null || skipRemaining > 0;
    }

    String position()
    {
        if (headerFill > 0)
        {
            return headerFill + " of " + header.length + " header bytes";
        }
        if (split != null)
        {
            return splitFill + " of " + splitLength + " payload bytes";
        }
        if (assembly != null)
        {
            return assemblyFill + " of " + assemblyLength + " bytes of a fragmented message";
        }
        return skipRemaining + " padding bytes missing";
    }

    void clear()
    {
        headerFill = 0;
        skipRemaining = 0;
        if (split != null)
        {
            split.release();
            split = null;
        }
        if (assembly != null)
        {
            assembly.release();
            assembly = null;
        }
    }
}
