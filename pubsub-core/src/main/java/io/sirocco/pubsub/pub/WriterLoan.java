package io.sirocco.pubsub.pub;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.dds.loan.LoaningDataWriter.WriteLoan;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.BusWriter;

/**
 * A DataWriter's one zero-copy loan (io.sirocco.dds.loan), reused so that a loan allocates nothing but its segment
 * slice. It lends the next send slot of the topic's subgroup itself: the application's bytes are the slot's bytes,
 * and commit only writes the bus header in front and publishes. Where the bus has no in-place slot (another bus, no
 * view yet, a size larger than a slot) or the wait for room timed out, the loan is the writer's own buffer and commit
 * publishes it as {@code write} would (throwing the TimeoutException then).
 *
 * <p>Threads: an open loan holds the writer's {@code lock} (taken by the writer before {@link #open}, released by
 * {@link #finish}); while {@code inSlot} it also holds a claimed slot (and the bus's send lock). Only the loaning
 * thread touches it while it is open.
 */
final class WriterLoan<T> implements WriteLoan
{
    private final String owner;
    private final ReentrantLock lock;
    private final TypeCodec<T> codec;
    private final WriterInstances<T> instances;
    private final WriterSendPath<T> sendPath;
    private final long maxBlockingNs;
    private boolean open;
    private boolean inSlot;
    private int size;
    private MemorySegment segment;
    private T keyScratch;

    /** {@code owner} names the writer in messages; {@code lock} is the writer's. */
    WriterLoan(final String owner, final ReentrantLock lock, final TypeCodec<T> codec,
        final WriterInstances<T> instances, final WriterSendPath<T> sendPath, final long maxBlockingNs)
    {
        this.owner = owner;
        this.lock = lock;
        this.codec = codec;
        this.instances = instances;
        this.sendPath = sendPath;
        this.maxBlockingNs = maxBlockingNs;
    }

    /** Whether a loan is open; with the writer's lock held. */
    boolean isOpen()
    {
        return open;
    }

    /** Opens the loan of {@code sizeBytes}; the caller holds the writer's lock, which the loan keeps until it ends. */
    WriteLoan open(final int sizeBytes)
    {
        open = true;
        size = sizeBytes;
        final BusWriter busWriter = sendPath.busWriter();
        if (busWriter.claim(sizeBytes, maxBlockingNs) == BusWriter.CLAIMED)
        {
            inSlot = true;
            segment = busWriter.claimedBuffer().asSlice(busWriter.claimedOffset(), sizeBytes);
        }
        else
        {
            inSlot = false;
            final BusMessage message = sendPath.message();
            message.ensureCapacity(sizeBytes);
            message.payloadLength(sizeBytes);
            segment = message.payloadSegment().asSlice(0, sizeBytes);
        }
        return this;
    }

    @Override
    public MemorySegment segment()
    {
        return segment;
    }

    @Override
    public void commit() throws TimeoutException
    {
        if (!open)
        {
            throw new IllegalStateException(owner + ": commit() without an open loan");
        }
        try
        {
            final WriterInstance<T> instance = instanceOfLoan();
            instance.registered = true;
            if (inSlot)
            {
                final BusWriter busWriter = sendPath.busWriter();
                sendPath.prepareInPlace(instance, busWriter.claimedBuffer(), busWriter.claimedOffset(), size,
                    SourceClock.nowNs());
                inSlot = false;
                busWriter.commitClaim(sendPath.message(), size);
            }
            else
            {
                sendPath.send(instance, BusMessage.KIND_DATA, SourceClock.nowNs());
            }
        }
        finally
        {
            finish();
        }
    }

    /** The instance of the loaned sample's key (read back from its bytes); the one instance of a keyless type. */
    private WriterInstance<T> instanceOfLoan()
    {
        if (codec.isKeyed())
        {
            keyScratch = codec.deserialize(segment, 0, size, keyScratch);
        }
        else if (keyScratch == null)
        {
            keyScratch = codec.newSample();
        }
        return instances.of(keyScratch, true);
    }

    @Override
    public void close()
    {
        if (open)
        {
            finish();
        }
    }

    /** Ends the loan: a slot still held (closed, or commit failed before publishing) is aborted. */
    private void finish()
    {
        try
        {
            if (inSlot)
            {
                inSlot = false;
                sendPath.busWriter().abortClaim();
            }
        }
        finally
        {
            open = false;
            segment = null;
            lock.unlock();
        }
    }
}
