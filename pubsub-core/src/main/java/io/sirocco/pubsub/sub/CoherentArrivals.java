package io.sirocco.pubsub.sub;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import io.sirocco.pubsub.bus.BusMessage;
import io.sirocco.pubsub.bus.CoherentSetMark;
import io.sirocco.pubsub.sub.MatchedWriters.WriterState;
import org.omg.dds.core.policy.Presentation;

/**
 * A DataReader's coherent sets in arrival (PRESENTATION coherent_access at TOPIC or GROUP scope, DDS 1.4 §2.2.3.6):
 * each live message a writer marked as part of a set ({@link BusMessage#KIND_COHERENT}) is held here, per writer, in
 * its arrival order, instead of reaching the cache. The writer's end mark ({@link BusMessage#KIND_COHERENT_END})
 * follows them in the topic subgroup's total order and carries how many it sent: at TOPIC scope the part is then
 * stored at once, under the reader's lock, so a read sees all of it or none ({@code Sink}), or dropped as lost if a
 * message is missing; at GROUP scope it goes to the subscriber's {@link GroupCoherence}, which stores it with the
 * other topics' parts. A writer that goes away with a part unfinished (closed mid-set, its process dead, excluded)
 * leaves nothing of it.
 *
 * <p>A reader whose subscriber does not request coherent access at TOPIC or GROUP scope ({@link #holds} false) takes
 * the marked messages as they come and ignores the end marks.
 *
 * <p>Concurrency: guarded by the reader's lock. The delivery thread holds and ends parts; the discovery thread drops a
 * writer's; {@link GroupCoherence} applies or discards a GROUP part, and asks {@link GroupCoherence.Member} questions,
 * from any thread, taking the reader's lock itself. Copies of held messages come from a pool, so a steady stream of
 * sets allocates only when a set is larger than any before it.
 */
final class CoherentArrivals implements GroupCoherence.Member
{
    /** How many writers that went away mid-set are remembered (for a GROUP set that waits for them). */
    private static final int MAX_DEPARTED = 1024;

    /** Where a held message goes when its part is applied: the reader's usual path (content filter, then cache). */
    interface Sink
    {
        /** Under the reader's lock. */
        void deliverHeld(WriterState writer, BusMessage message);
    }

    private final ReentrantLock lock;
    private final MatchedWriters writers;
    private final SampleStatusCounts sampleStatuses;
    /** The subscriber's sets at GROUP scope, else null. */
    private final GroupCoherence group;
    private final boolean holds;
    private final Runnable applied;
    private final Map<Long, HeldPart> held = new HashMap<>();
    private final ArrayDeque<BusMessage> free = new ArrayDeque<>();
    private final Map<Long, Boolean> departed = new LinkedHashMap<>(16, 0.75f, false)
    {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, Boolean> eldest)
        {
            return size() > MAX_DEPARTED;
        }
    };
    private Sink sink;

    /**
     * @param applied told (outside every lock) when a GROUP part was stored from another thread.
     */
    CoherentArrivals(final Presentation presentation, final GroupCoherence subscriberSets, final ReentrantLock lock,
        final MatchedWriters writers, final SampleStatusCounts sampleStatuses, final Runnable applied)
    {
        this.lock = lock;
        this.writers = writers;
        this.sampleStatuses = sampleStatuses;
        this.applied = applied;
        this.holds = presentation.isCoherentAccess() &&
            presentation.getAccessScope() != Presentation.AccessScopeKind.INSTANCE;
        this.group = holds && presentation.getAccessScope() == Presentation.AccessScopeKind.GROUP ? subscriberSets
            : null;
    }

    /** Set once, before the reader is enabled. */
    void sink(final Sink heldSink)
    {
        this.sink = heldSink;
        if (group != null)
        {
            group.join(this);
        }
    }

    /** Whether this reader holds coherent sets (else it takes marked messages as they come). */
    boolean holds()
    {
        return holds;
    }

    /** Whether the reader's sets are the subscriber's (GROUP scope): then its batches must not run inline. */
    boolean grouped()
    {
        return group != null;
    }

    /** Under the reader's lock: keeps a copy of a live message of an open set. */
    void hold(final WriterState writer, final BusMessage message)
    {
        HeldPart part = held.get(message.writerGuid());
        if (part == null)
        {
            part = new HeldPart(writer);
            held.put(message.writerGuid(), part);
        }
        final BusMessage copy = free.isEmpty() ? new BusMessage(message.payloadLength()) : free.poll();
        copy.copyFrom(message);
        copy.kind(message.kind() & ~BusMessage.KIND_COHERENT);
        part.messages.add(copy);
    }

    /**
     * Under the reader's lock: the writer's end mark. TOPIC scope: stores the part now (or drops it, short). GROUP
     * scope: hands it to the subscriber; the caller then calls {@link #settle} once it released the reader's lock.
     */
    void ended(final WriterState writer, final BusMessage message)
    {
        final CoherentSetMark mark = CoherentSetMark.readFrom(message);
        HeldPart part = held.remove(message.writerGuid());
        if (part == null)
        {
            part = new HeldPart(writer);
        }
        part.mark = mark;
        if (group != null)
        {
            group.offer(part);
        }
        else if (part.complete())
        {
            part.store();
        }
        else
        {
            part.drop();
        }
    }

    /** No reader lock held: lets the subscriber decide the GROUP sets that a part or a departure settled. */
    void settle()
    {
        if (group != null)
        {
            group.settle();
        }
    }

    /** Under the reader's lock: the writer went away; its unfinished part is dropped (lost) and remembered. */
    void writerGone(final long writerGuid)
    {
        final HeldPart part = held.remove(writerGuid);
        if (part != null)
        {
            part.drop();
            departed.put(writerGuid, Boolean.TRUE);
        }
    }

    /** The reader is closed: it takes no more part in the subscriber's sets. */
    void close()
    {
        if (group != null)
        {
            group.leave(this);
        }
    }

    @Override
    public boolean receives(final long writerGuid)
    {
        lock.lock();
        try
        {
            return writers.get(writerGuid) != null;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public boolean departed(final long writerGuid)
    {
        lock.lock();
        try
        {
            return departed.containsKey(writerGuid) && writers.get(writerGuid) == null;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void applied()
    {
        applied.run();
    }

    /** One writer's messages of one set in this reader. Guarded by the reader's lock. */
    private final class HeldPart implements GroupCoherence.Part
    {
        private final WriterState writer;
        private final List<BusMessage> messages = new ArrayList<>();
        private CoherentSetMark mark;

        HeldPart(final WriterState writer)
        {
            this.writer = writer;
        }

        @Override
        public GroupCoherence.Member member()
        {
            return CoherentArrivals.this;
        }

        @Override
        public long writerGuid()
        {
            return writer.record.guid();
        }

        @Override
        public CoherentSetMark mark()
        {
            return mark;
        }

        @Override
        public boolean complete()
        {
            return mark.countOf(writerGuid()) == messages.size();
        }

        /** Under the reader's lock. */
        void store()
        {
            for (final BusMessage message : messages)
            {
                sink.deliverHeld(writer, message);
            }
            recycle();
        }

        /** Under the reader's lock. */
        void drop()
        {
            sampleStatuses.lost(messages.size());
            recycle();
        }

        private void recycle()
        {
            free.addAll(messages);
            messages.clear();
        }

        @Override
        public void apply()
        {
            lock.lock();
            try
            {
                store();
            }
            finally
            {
                lock.unlock();
            }
        }

        @Override
        public void discard()
        {
            lock.lock();
            try
            {
                drop();
            }
            finally
            {
                lock.unlock();
            }
        }
    }
}
