package io.sirocco.transport.orb;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.Message;
import io.sirocco.transport.flow.FlowControl;
import io.sirocco.transport.protocol.FrameDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many producers into one small ring (so it wraps constantly and producers overtake each other, exercising the
 * catch-up buffer) with one consumer parsing the byte stream: every frame arrives whole, once, and in each producer's
 * order.
 */
@Timeout(120)
class OutgoingRingBufferTest
{
    private static final class Counted extends Message
    {
        int producer;
        long sequence;
        int filler;

        Counted()
        {
            super(1, 1);
        }

        @Override public int payloadSize() { return 4 + 8 + 4 + filler; }

        @Override
        public void exportPayload(final Exporter exporter)
        {
            exporter.writeInt(producer);
            exporter.writeLong(sequence);
            exporter.writeInt(filler);
            for (int i = 0; i < filler; i++)
            {
                exporter.writeByte((byte)(sequence + i));
            }
        }

        @Override public void importPayload(final Importer importer) { }
    }

    @Test
    void shouldCarryEveryFrameOnceInProducerOrderWithWrapAndCatchUp() throws Exception
    {
        final int producers = 8;
        final int perProducer = 5_000;
        final OutgoingRingBuffer ring = new OutgoingRingBuffer(4096, 64);
        final FlowControl flow = new FlowControl(1 << 30, 0.5);
        final RingSignals signals = new RingSignals()
        {
            @Override public void framesCommitted() { }
            @Override public void awaitProgress(final int attempt) { Thread.yield(); }
        };
        final AtomicBoolean done = new AtomicBoolean();
        final long[] next = new long[producers];
        final int[] errors = new int[1];
        final MemorySegment stream = Arena.ofAuto().allocate(1 << 16);
        final Thread consumer = Thread.ofPlatform().start(() ->
        {
            int pending = 0;
            while (!done.get() || ring.readableBytes() > 0)
            {
                final int copied = ring.copyTo(stream, pending, (int)stream.byteSize() - pending);
                ring.consumed(copied);
                pending += copied;
                int offset = 0;
                while (pending - offset >= FrameDescriptor.HEADER_LENGTH)
                {
                    final int length = stream.get(FrameDescriptor.INT, offset + FrameDescriptor.PAYLOAD_LENGTH_OFFSET);
                    if (pending - offset < FrameDescriptor.HEADER_LENGTH + length)
                    {
                        break;
                    }
                    final long p = offset + FrameDescriptor.HEADER_LENGTH;
                    final int producer = stream.get(FrameDescriptor.INT, p);
                    final long sequence = stream.get(FrameDescriptor.LONG, p + 4);
                    final int filler = stream.get(FrameDescriptor.INT, p + 12);
                    if (stream.get(ValueLayout.JAVA_BYTE, offset) != FrameDescriptor.MAGIC || sequence != next[producer]++)
                    {
                        errors[0]++;
                    }
                    for (int i = 0; i < filler; i++)
                    {
                        if (stream.get(ValueLayout.JAVA_BYTE, p + 16 + i) != (byte)(sequence + i))
                        {
                            errors[0]++;
                        }
                    }
                    offset += FrameDescriptor.HEADER_LENGTH + length;
                }
                MemorySegment.copy(stream, offset, stream, 0, pending - offset);
                pending -= offset;
            }
        });
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            threads.add(Thread.ofPlatform().start(() ->
            {
                final Counted message = new Counted();
                message.producer = producer;
                for (int i = 0; i < perProducer; i++)
                {
                    message.sequence = i;
                    message.filler = (i * 7 + producer) % 300;
                    ring.write(message, FrameDescriptor.KIND_MESSAGE, 0, flow, signals);
                }
            }));
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        done.set(true);
        consumer.join();
        assertThat(errors[0]).isZero();
        for (int p = 0; p < producers; p++)
        {
            assertThat(next[p]).isEqualTo(perProducer);
        }
    }
}
