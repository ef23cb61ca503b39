package io.sirocco.tests.dds.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.tests.dds.types.Shape;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.pub.Publisher;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A child process for {@code MultiProcessSlowReliableReaderTest}, speaking line by line on stdout. Two topics:
 * {@code SlowReliable} (RELIABLE, KEEP_ALL) and {@code SideTopic} (RELIABLE, KEEP_ALL), both written by the
 * {@code pub} process and read by the {@code sub} process.
 *
 * <p>{@code pub <domain> <count> <maxBlockingMs>}: waits for the reader of both topics, then writes x = 1 ..
 * {@code count} on SlowReliable as fast as it can; a write that throws TimeoutException prints {@code TIMEOUT x
 * <message>} (the first time) and is retried until it is accepted, so the stream has no hole; prints {@code DONE
 * count}. Meanwhile a thread writes SideTopic every 5 ms. Prints {@code PUBMATCHED c} whenever the SlowReliable
 * writer's matched count changes.
 *
 * <p>{@code sub <domain> <stallMs>}: a SlowReliable reader whose DataAvailable listener, the first time it runs,
 * prints {@code STALL_START}, sleeps {@code stallMs} and prints {@code STALL_END}, then takes quickly; it prints
 * {@code GAP a -> b} for a hole or a repeat, {@code RECEIVED n last x} every 100 samples and {@code LOST n} when
 * SampleLost moves. A SideTopic reader polled on the main thread prints {@code SIDE n} every 20 samples. Prints
 * {@code SUBMATCHED c} whenever the SlowReliable reader's matched count changes.
 */
public final class SlowReliableNode
{
    private SlowReliableNode()
    {
    }

    private static void print(final String line)
    {
        synchronized (System.out)
        {
            System.out.println(line);
            System.out.flush();
        }
    }

    private static void pub(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> main,
        final Topic<Shape> side, final int count, final long maxBlockingMs) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(main, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(maxBlockingMs, TimeUnit.MILLISECONDS),
                pf.History().withKeepAll()));
        final DataWriter<Shape> sideWriter = publisher.createDataWriter(side, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.History().withKeepAll()));
        while (writer.getPublicationMatchedStatus().getCurrentCount() < 1
            || sideWriter.getPublicationMatchedStatus().getCurrentCount() < 1)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        print("MATCHED");
        Thread.ofPlatform().daemon().name("side-writer").start(() ->
        {
            final Shape shape = new Shape("BLUE", 0, 0, 10);
            try
            {
                for (int x = 1; ; x++)
                {
                    shape.x = x;
                    sideWriter.write(shape);
                    LockSupport.parkNanos(5_000_000L);
                }
            }
            catch (final Exception ex)
            {
                print("SIDE_FAILED " + ex);
            }
        });
        Thread.ofPlatform().daemon().name("match-watch").start(() ->
        {
            int last = -1;
            while (true)
            {
                final int now = writer.getPublicationMatchedStatus().getCurrentCount();
                if (now != last)
                {
                    print("PUBMATCHED " + now);
                    last = now;
                }
                LockSupport.parkNanos(20_000_000L);
            }
        });
        final Shape shape = new Shape("RED", 0, 0, 10);
        boolean reported = false;
        for (int x = 1; x <= count; x++)
        {
            shape.x = x;
            while (true)
            {
                try
                {
                    writer.write(shape);
                    break;
                }
                catch (final java.util.concurrent.TimeoutException ex)
                {
                    if (!reported)
                    {
                        print("TIMEOUT " + x + " " + ex.getMessage());
                        reported = true;
                    }
                }
            }
        }
        print("DONE " + count);
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void sub(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> main,
        final Topic<Shape> side, final long stallMs) throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> sideReader = subscriber.createDataReader(side, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()));
        final int[] last = {0};
        final long[] received = {0};
        final boolean[] stalled = {false};
        final DataReader<Shape> reader = subscriber.createDataReader(main, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.History().withKeepAll()),
            new org.omg.dds.sub.DataReaderAdapter<>()
            {
                private final List<Sample<Shape>> samples = new ArrayList<>();

                @Override
                public void onDataAvailable(final org.omg.dds.core.event.DataAvailableEvent<Shape> event)
                {
                    if (!stalled[0])
                    {
                        stalled[0] = true;
                        print("STALL_START");
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(stallMs));
                        print("STALL_END");
                    }
                    event.getSource().take(samples);
                    for (final Sample<Shape> sample : samples)
                    {
                        if (sample.getData() == null)
                        {
                            continue;
                        }
                        final int x = sample.getData().x;
                        if (x != last[0] + 1)
                        {
                            print("GAP " + last[0] + " -> " + x);
                        }
                        last[0] = x;
                        if (++received[0] % 100 == 0)
                        {
                            print("RECEIVED " + received[0] + " last " + x);
                        }
                    }
                }
            }, null);
        final List<Sample<Shape>> sideSamples = new ArrayList<>();
        long sideCount = 0;
        int lostReported = 0;
        int matched = -1;
        while (true)
        {
            sideReader.take(sideSamples);
            for (final Sample<Shape> sample : sideSamples)
            {
                if (sample.getData() != null && ++sideCount % 20 == 0)
                {
                    print("SIDE " + sideCount);
                }
            }
            final int lost = reader.getSampleLostStatus().getTotalCount();
            if (lost != lostReported)
            {
                lostReported = lost;
                print("LOST " + lost);
            }
            final int now = reader.getSubscriptionMatchedStatus().getCurrentCount();
            if (now != matched)
            {
                matched = now;
                print("SUBMATCHED " + now);
            }
            LockSupport.parkNanos(2_000_000L);
        }
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(SlowReliableNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        print("JOINED");
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> main = participant.createTopic("SlowReliable", Shape.class);
        final Topic<Shape> side = participant.createTopic("SideTopic", Shape.class);
        if (args[0].equals("pub"))
        {
            pub(participant, pf, main, side, Integer.parseInt(args[2]), Long.parseLong(args[3]));
        }
        else
        {
            sub(participant, pf, main, side, Long.parseLong(args[2]));
        }
    }
}
