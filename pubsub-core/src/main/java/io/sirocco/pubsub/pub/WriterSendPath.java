package io.sirocco.pubsub.pub;

import java.lang.foreign.MemorySegment;
import java.util.NavigableMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;
import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.CoherentSetMark;
import io.sirocco.pubsub.durability.DurableZoneWriter;
import io.sirocco.pubsub.durability.SampleEnvelope;
import io.sirocco.pubsub.durability.WriterTakeover;
import io.sirocco.pubsub.bus.BusWriter;

/**
 * How a DataWriter's messages reach the bus. A DATA sample is serialized straight into the claimed send slot of the
 * topic's subgroup when the bus has one (blocking for up to max_blocking_time while a RELIABLE reader's window is
 * full); a sample larger than a slot, a bus without in-place slots, and lifecycle messages (dispose, unregister) go
 * through the writer's reusable {@link BusMessage} and the bulk path. TRANSIENT_LOCAL writers keep a copy of each
 * message in the instance's history ({@link WriterInstances}), replayed to a late joiner by {@link #replay}.
 *
 * A sample that no matched reader's content filter passes is not sent at all ({@link ReaderFilters}).
 *
 * <p>Threads: guarded by the writer's {@code lock}; every method but {@link #awaitDelivered} is called with it held.
 * The write path allocates nothing for a known instance.
 */
final class WriterSendPath<T>
{
    private final String owner;
    private final String typeName;
    private final long guid;
    private final TypeCodec<T> codec;
    private final DataRepresentation representation;
    private final WriterInstances<T> instances;
    private final long maxBlockingNs;
    private final boolean transientLocal;
    private final BusMessage message;
    private final ReaderFilters<T> readerFilters;
    /** The writer's LIVELINESS: every message sent asserts it; set once, before the writer is enabled. */
    private WriterLiveliness liveliness;
    /** The publisher's coherent sets as this writer takes part in them; set once, before the writer is enabled. */
    private WriterCoherence coherence;
    /** The serialized size of every sample of a fixed-size type (no per-write size walk), else 0. */
    private final int fixedSize;
    private BusWriter busWriter;
    /** The durable log zone of a TRANSIENT writer, else null; set once at enable. */
    private DurableZoneWriter durable;
    private long seq;

    /** {@code owner} names the writer in messages, {@code typeName} the topic's type. */
    WriterSendPath(final String owner, final String typeName, final long guid, final TypeCodec<T> codec,
        final WriterInstances<T> instances, final long maxBlockingNs, final boolean transientLocal,
        final ReaderFilters<T> readerFilters)
    {
        this.owner = owner;
        this.typeName = typeName;
        this.guid = guid;
        this.codec = codec;
        this.representation = codec.defaultRepresentation();
        this.instances = instances;
        this.maxBlockingNs = maxBlockingNs;
        this.transientLocal = transientLocal;
        final long maxSize = codec.maxSerializedSize();
        this.fixedSize = codec.isFixedSize() && maxSize > 0 && maxSize < 65536 ? (int)maxSize : 0;
        this.message = new BusMessage(maxSize > 0 && maxSize < 65536 ? (int)maxSize : 256);
        this.readerFilters = readerFilters;
    }

    /** The matched readers' content filters, kept up to date by the writer's matching. */
    ReaderFilters<T> readerFilters()
    {
        return readerFilters;
    }

    /**
     * Writes a DATA sample: withheld when no matched reader wants it, else in place or through the bulk path.
     * Allocates nothing for a known instance.
     */
    void write(final WriterInstance<T> instance, final T data, final long timestampNs) throws TimeoutException
    {
        if (!readerFilters.wanted(data))
        {
            withhold(instance, data, timestampNs);
        }
        else if (!writeInPlace(instance, data, timestampNs))
        {
            serialize(data);
            instance.registered = true;
            send(instance, BusMessage.KIND_DATA, timestampNs);
        }
    }

    /**
     * A TRANSIENT writer's zone: every sample sent from now on is also appended to it; a replacement writer first
     * takes the history it resumes from ({@link #resume}).
     */
    void durable(final DurableZoneWriter zone, final WriterTakeover.Resumed resumed)
    {
        this.durable = zone;
        resume(resumed.samples(), resumed.highWaterMark());
    }

    void liveliness(final WriterLiveliness writerLiveliness)
    {
        this.liveliness = writerLiveliness;
    }

    void coherence(final WriterCoherence writerCoherence)
    {
        this.coherence = writerCoherence;
    }

    /** How many messages this writer sent in the publisher's coherent set {@code setNumber}. */
    int coherentCount(final long setNumber)
    {
        return coherence.countIn(setNumber);
    }

    /**
     * Ends this writer's part of a coherent set: sends {@code mark} after the set's messages, in the same subgroup
     * order, so that a reader holding them knows the part is complete (or, its count short, that it is not).
     */
    void endCoherentSet(final CoherentSetMark mark) throws TimeoutException
    {
        mark.writeTo(message);
        message.kind(BusMessage.KIND_COHERENT_END).writerGuid(guid).seq(++seq).sourceTimeNs(SourceClock.nowNs())
            .keyHash(0, 0);
        liveliness.sent(System.nanoTime());
        if (!busWriter.publish(message, maxBlockingNs))
        {
            throw timedOut();
        }
    }

    /** Waits until the durable zone's backups (TRANSIENT) hold every sample sent; TimeoutException says why not. */
    void awaitDurable(final long deadlineNs) throws TimeoutException
    {
        if (durable != null)
        {
            durable.awaitAcknowledged(deadlineNs);
        }
    }

    /**
     * Refuses (OUT_OF_RESOURCES) a sample of {@code length} payload bytes the durable zone has no room for, before it
     * takes a sequence number or a place in the history: a full zone is an error on {@code write}, never a silent
     * wait in {@code waitForAcknowledgments}.
     */
    private void ensureDurableRoom(final WriterInstance<T> instance, final int length)
    {
        final String refusal = durable == null ? null
            : durable.refusal(instance.key.hi(), instance.key.lo(), instance.durableCount, length);
        if (refusal != null)
        {
            throw instances.outOfResources(refusal);
        }
    }

    /** Appends the history copy just remembered in {@link #message} to the durable zone, if any. */
    private void appendDurable(final WriterInstance<T> instance)
    {
        if (durable != null)
        {
            durable.append(message.kind(), message.seq(), message.sourceTimeNs(), message.keyHashHi(),
                message.keyHashLo(), instance.durableCount++, message.payload(), message.payloadLength());
        }
    }

    /**
     * A replacement writer (a configured identity) takes its dead predecessor's served history: into its instances'
     * TRANSIENT_LOCAL history (for later joiners) and its own durable zone (for its own failure), then resumes its
     * sequence numbers past the high-water mark. Unregisters of the old history are not kept: the instances are this
     * writer's, registered, from now on.
     */
    private void resume(final NavigableMap<Long, byte[]> samples, final long highWaterMark)
    {
        for (final byte[] envelope : samples.values())
        {
            SampleEnvelope.toMessage(message, guid, envelope);
            if ((message.kind() & (BusMessage.KIND_DATA | BusMessage.KIND_DISPOSE)) == 0)
            {
                continue;
            }
            final T data = codec.deserialize(message.payloadSegment(), 0, message.payloadLength(), null);
            final WriterInstance<T> instance = instances.of(data, true);
            instance.registered = true;
            instances.remember(instance, message);
            appendDurable(instance);
        }
        seq = Math.max(seq, highWaterMark);
    }

    /** The writer is enabled: its bus writer. */
    void open(final BusWriter writer)
    {
        this.busWriter = writer;
    }

    BusWriter busWriter()
    {
        return busWriter;
    }

    /** The writer's reusable message: the bulk path's buffer (and a loan's where there is no slot). */
    BusMessage message()
    {
        return message;
    }

    /** Serializes a sample into {@link #message}; a sample violating a bound is rejected. */
    void serialize(final T data)
    {
        final int size = serializedSize(data);
        try
        {
            message.ensureCapacity(size);
            message.payloadLength((int)codec.serialize(data, message.payloadSegment(), 0, representation));
        }
        catch (final IllegalArgumentException | NullPointerException ex)
        {
            throw rejected(ex);
        }
    }

    /** The exact serialized size (encapsulation header included); a sample violating a bound is rejected. */
    private int serializedSize(final T data)
    {
        try
        {
            final long size = fixedSize > 0 ? fixedSize : codec.serializedSize(data, representation);
            if (size > Integer.MAX_VALUE - 64)
            {
                throw new IllegalArgumentException("serialized size " + size + " bytes is too large");
            }
            return (int)size;
        }
        catch (final IllegalArgumentException | NullPointerException ex)
        {
            throw rejected(ex);
        }
    }

    private IllegalArgumentException rejected(final RuntimeException ex)
    {
        return new IllegalArgumentException(owner + ": sample of type " + typeName + " rejected: " +
            ex.getMessage(), ex);
    }

    TimeoutException timedOut()
    {
        return new TimeoutException(owner + ": a RELIABLE reader stayed a full window behind for the " +
            "Reliability max_blocking_time (" + TimeUnit.NANOSECONDS.toMillis(maxBlockingNs) + " ms)");
    }

    /**
     * Writes a DATA sample straight into the claimed send slot of the topic's subgroup: the codec serializes into the
     * slot (no intermediate buffer), the bus writes its header in front, and the commit publishes it. RELIABLE
     * blocking is the claim's: it waits for room up to max_blocking_time. Any failure between claim and commit (a
     * sample violating a bound, KEEP_ALL history full) aborts the claim, whose slot then keeps its place in the order
     * and is delivered to nobody. Allocates nothing for a known instance.
     *
     * @return false when the bus has no in-place slot for this sample (another bus, no view yet, or a sample larger
     *         than a slot, which goes through the bulk path): the caller takes the copying path.
     */
    boolean writeInPlace(final WriterInstance<T> instance, final T data, final long timestampNs)
        throws TimeoutException
    {
        final int size = serializedSize(data);
        final int rc = busWriter.claim(size, maxBlockingNs);
        if (rc == BusWriter.NOT_IN_PLACE)
        {
            return false;
        }
        if (rc == BusWriter.TIMED_OUT)
        {
            throw timedOut();
        }
        boolean handedOver = false;
        try
        {
            final MemorySegment slot = busWriter.claimedBuffer();
            final int offset = busWriter.claimedOffset();
            final int length;
            try
            {
                length = (int)codec.serialize(data, slot, offset, representation);
            }
            catch (final IllegalArgumentException | NullPointerException ex)
            {
                throw rejected(ex);
            }
            instance.registered = true;
            prepareInPlace(instance, slot, offset, length, timestampNs);
            handedOver = true;
            busWriter.commitClaim(message, length);
        }
        finally
        {
            if (!handedOver)
            {
                busWriter.abortClaim();
            }
        }
        return true;
    }

    /**
     * Sets the header of a DATA message whose {@code length} payload bytes are already in the claimed slot and keeps
     * the TRANSIENT_LOCAL history copy; the caller then commits. If the history refuses the sample the caller aborts
     * the claim instead.
     */
    void prepareInPlace(final WriterInstance<T> instance, final MemorySegment slot, final int offset,
        final int length, final long timestampNs)
    {
        message.kind(BusMessage.KIND_DATA).writerGuid(guid).seq(seq + 1).sourceTimeNs(timestampNs)
            .keyHash(instance.key.hi(), instance.key.lo());
        final long nowNs = System.nanoTime();
        instance.deadline.updated(nowNs);
        liveliness.sent(nowNs);
        if (transientLocal)
        {
            ensureDurableRoom(instance, length);
            message.ensureCapacity(length);
            MemorySegment.copy(slot, offset, message.payloadSegment(), 0, length);
            message.payloadLength(length);
            instances.remember(instance, message);
            appendDurable(instance);
        }
        seq++;
        // after the history copy: a replay to a late joiner is never part of a set
        message.kind(BusMessage.KIND_DATA | coherence.nextMessageFlag());
    }

    /**
     * A DATA sample no matched reader wants (writer-side filtering): written but not sent. It takes its sequence
     * number (readers accept gaps) and, TRANSIENT_LOCAL, its place in the instance history and the durable zone, so
     * that a late joiner, whose filter may differ, still gets it.
     */
    void withhold(final WriterInstance<T> instance, final T data, final long timestampNs)
    {
        instance.registered = true;
        if (transientLocal)
        {
            serialize(data);
            stamp(instance, BusMessage.KIND_DATA, timestampNs);
        }
        else
        {
            seq++;
            instance.deadline.updated(System.nanoTime());
        }
    }

    /** Publishes {@link #message} (its payload already set) as a {@code kind} message of the instance. */
    void send(final WriterInstance<T> instance, final int kind, final long timestampNs) throws TimeoutException
    {
        stamp(instance, kind, timestampNs);
        message.kind(kind | coherence.nextMessageFlag()); // after the history copy, as in prepareInPlace
        if (!busWriter.publish(message, maxBlockingNs))
        {
            throw timedOut();
        }
    }

    /** Sets {@link #message}'s header and keeps its TRANSIENT_LOCAL history copy (and durable zone entry). */
    private void stamp(final WriterInstance<T> instance, final int kind, final long timestampNs)
    {
        if (transientLocal)
        {
            ensureDurableRoom(instance, message.payloadLength());
        }
        message.kind(kind).writerGuid(guid).seq(++seq).sourceTimeNs(timestampNs)
            .keyHash(instance.key.hi(), instance.key.lo());
        final long nowNs = System.nanoTime();
        if ((kind & BusMessage.KIND_DATA) != 0)
        {
            instance.deadline.updated(nowNs);
        }
        liveliness.sent(nowNs);
        if (transientLocal)
        {
            instances.remember(instance, message);
            appendDurable(instance);
        }
    }

    /**
     * Sends every instance's history to one late-joining reader, then the end-of-history mark; samples whose LIFESPAN
     * has passed are dropped first, never sent.
     */
    void replay(final long readerGuid)
    {
        final long nowNs = SourceClock.nowNs();
        for (final WriterInstance<T> instance : instances.all())
        {
            instances.dropExpired(instance, nowNs);
            for (final BusMessage old : instance.history)
            {
                final int kind = old.kind();
                old.kind(kind | BusMessage.KIND_HISTORY);
                final boolean sent = busWriter.sendDirected(readerGuid, old, maxBlockingNs);
                old.kind(kind);
                if (!sent)
                {
                    return;
                }
            }
        }
        final BusMessage end = new BusMessage(16);
        end.kind(BusMessage.KIND_HISTORY_END).writerGuid(guid).seq(seq).payloadLength(0);
        busWriter.sendDirected(readerGuid, end, maxBlockingNs);
    }

    /** Waits until every matched reader acknowledged; any thread. */
    boolean awaitDelivered(final long timeoutNs)
    {
        return busWriter.awaitDelivered(timeoutNs);
    }

    void close()
    {
        busWriter.close();
    }
}
