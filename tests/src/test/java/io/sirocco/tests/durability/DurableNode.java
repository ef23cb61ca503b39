package io.sirocco.tests.durability;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.omg.dds.sub.InstanceState;
import org.omg.dds.sub.Sample;
import org.omg.dds.sub.Subscriber;
import org.omg.dds.topic.Topic;

/**
 * A child process of the durability tests, through the standard DDS API only, line by line on stdout.
 * <ul>
 * <li>{@code backup <domain>}: a participant that holds backups ({@code sirocco.dds.durability.backup=true} set by
 * the test); prints {@code JOINED}, then a {@code RECOVERED} line per failed writer whose history it recovered
 * (through the participant's durability node), and serves that history to readers through DDS.</li>
 * <li>{@code writer <domain> <n>}: a TRANSIENT RELIABLE KEEP_ALL writer writes samples 1..n (x = i), waits for
 * acknowledgments (held by the backups; at most {@code -DackSeconds}, 60 by default) and prints
 * {@code ACKED n <digest>}, or {@code NOT_ACKED <reason>}; once a
 * reader matched it writes n+1..2n and prints {@code LIVE 2n <digest>} after their acknowledgment.</li>
 * <li>{@code reader <domain> <total>}: a late TRANSIENT reader; after waitForHistoricalData prints
 * {@code HISTORY <count>}, then takes until {@code total} samples and prints {@code COMPLETE total <digest>}, or
 * {@code BROKEN <why>} at the first sample out of order or repeated (or beyond {@code total}); {@code NO_WRITERS
 * after <x>} when it first sees an instance NOT_ALIVE_NO_WRITERS.</li>
 * <li>{@code witness <domain> <total>}: the same, then, once the writer's GUID is matched again (a backup serving
 * its recovered history), waits for that history and prints {@code AFTER <n>}: the samples it got again.</li>
 * </ul>
 * The digest is SHA-256 over the x values in delivery order.
 */
public final class DurableNode
{
    private static final String TOPIC = "DurableShapes";

    private DurableNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(DurableNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic(TOPIC, Shape.class);
        System.out.println("JOINED");
        System.out.flush();
        switch (args[0])
        {
            case "writer" -> write(participant, pf, topic, Integer.parseInt(args[2]));
            case "reader" -> read(participant, pf, topic, Integer.parseInt(args[2]), false);
            case "witness" -> read(participant, pf, topic, Integer.parseInt(args[2]), true);
            case "publish" -> publish(participant, pf, topic, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> reportRecoveries(participant);
        }
    }

    /**
     * A backup: prints {@code RECOVERED <writer> <count> <firstSeq> <lastSeq> <digest>} once for each failed writer
     * whose history this backup recovered (the digest over the recovered samples' x values in sequence order,
     * decoded with the topic's codec).
     */
    private static void reportRecoveries(final DomainParticipant participant) throws Exception
    {
        final io.sirocco.pubsub.durability.RecoveredHistories recovered =
            ((io.sirocco.pubsub.domain.ParticipantImpl)participant).durability().recovered();
        final java.util.Set<Long> reported = new java.util.HashSet<>();
        while (true)
        {
            for (final long writer : recovered.recoveredWriters())
            {
                if (reported.add(writer))
                {
                    final io.sirocco.pubsub.durability.RecoveredSamples samples = recovered.samplesOf(writer);
                    final MessageDigest digest = MessageDigest.getInstance("SHA-256");
                    for (int i = 0; i < samples.size(); i++)
                    {
                        final byte[] envelope = samples.copy(i);
                        final Shape shape = io.sirocco.tests.dds.types.ShapeTypeSupport.INSTANCE.deserialize(
                            java.lang.foreign.MemorySegment.ofArray(envelope),
                            io.sirocco.pubsub.durability.SampleEnvelope.HEADER_BYTES,
                            envelope.length - io.sirocco.pubsub.durability.SampleEnvelope.HEADER_BYTES, null);
                        digest.update(Integer.toString(shape.x).getBytes());
                    }
                    System.out.println("RECOVERED " + Long.toHexString(writer) + " " + samples.size() + " " +
                        samples.firstSequence() + " " + samples.lastSequence()
                        + " " + HexFormat.of().formatHex(digest.digest()));
                    System.out.flush();
                }
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }

    private static void write(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int n) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.Durability().withTransient(), pf.History().withKeepAll(),
                pf.DurabilityService().withHistoryKind(org.omg.dds.core.policy.History.Kind.KEEP_ALL)));
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (int i = 1; i <= n; i++)
        {
            writer.write(new Shape("S", i, 0, 1));
            digest.update(Integer.toString(i).getBytes());
        }
        try
        {
            writer.waitForAcknowledgments(Integer.getInteger("ackSeconds", 60), TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            System.out.println("NOT_ACKED " + ex.getMessage());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ACKED " + n + " " + HexFormat.of().formatHex(((MessageDigest)digest.clone()).digest()));
        System.out.flush();
        while (writer.getPublicationMatchedStatus().getCurrentCount() < 1)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        for (int i = n + 1; i <= 2 * n; i++)
        {
            writer.write(new Shape("S", i, 0, 1));
            digest.update(Integer.toString(i).getBytes());
        }
        writer.waitForAcknowledgments(60, TimeUnit.SECONDS);
        System.out.println("LIVE " + 2 * n + " " + HexFormat.of().formatHex(digest.digest()));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * {@code publish <domain> <from> <to>}: a TRANSIENT writer (its identity, if any, from the JVM's settings) writes
     * x = from..to, waits for acknowledgments and prints {@code ACKED <to> <digest over from..to>}.
     */
    private static void publish(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int from, final int to) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.Durability().withTransient(), pf.History().withKeepAll(),
                pf.DurabilityService().withHistoryKind(org.omg.dds.core.policy.History.Kind.KEEP_ALL)));
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (int i = from; i <= to; i++)
        {
            writer.write(new Shape("S", i, 0, 1));
            digest.update(Integer.toString(i).getBytes());
        }
        writer.waitForAcknowledgments(60, TimeUnit.SECONDS);
        System.out.println("ACKED " + to + " " + HexFormat.of().formatHex(digest.digest()));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void read(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int total, final boolean witness) throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.Durability().withTransient(),
                pf.History().withKeepAll()));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (reader.getSubscriptionMatchedStatus().getCurrentCount() < 1 && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        reader.waitForHistoricalData(60, TimeUnit.SECONDS);
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final List<Sample<Shape>> samples = new ArrayList<>();
        int last = 0;
        boolean first = true;
        boolean noWriters = false;
        while (last < total || !witness && !noWriters)
        {
            reader.take(samples);
            if (first)
            {
                System.out.println("HISTORY " + samples.size());
                System.out.flush();
                first = false;
            }
            for (final Sample<Shape> sample : samples)
            {
                if (!noWriters && sample.getInstanceState() == InstanceState.NOT_ALIVE_NO_WRITERS)
                {
                    noWriters = true;
                    System.out.println("NO_WRITERS after " + last);
                    System.out.flush();
                }
                final Shape shape = sample.getData();
                if (shape == null)
                {
                    continue;
                }
                if (shape.x != last + 1 || last == total)
                {
                    System.out.println("BROKEN after " + last + " came " + shape.x);
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                }
                last = shape.x;
                digest.update(Integer.toString(last).getBytes());
                if (last == Integer.getInteger("checkpoint", -1))
                {
                    System.out.println("AT " + last + " " + HexFormat.of().formatHex(((MessageDigest)digest.clone())
                        .digest()));
                    System.out.flush();
                }
                if (last == total)
                {
                    System.out.println("COMPLETE " + total + " " + HexFormat.of().formatHex(digest.digest()));
                    System.out.flush();
                }
            }
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(500_000L);
            }
        }
        if (witness)
        {
            afterWriterRevived(reader, samples);
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * A reader that took everything from the writer before it died: waits until the writer's GUID is matched again
     * (a backup serving the recovered history), for the end of that history, then prints {@code AFTER <n>}, the
     * samples it received again (0: nothing delivered twice).
     */
    private static void afterWriterRevived(final DataReader<Shape> reader, final List<Sample<Shape>> samples)
        throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (reader.getSubscriptionMatchedStatus().getTotalCount() < 2 && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        System.out.println("REMATCHED " + reader.getSubscriptionMatchedStatus().getTotalCount());
        reader.waitForHistoricalData(60, TimeUnit.SECONDS);
        reader.take(samples);
        System.out.println("AFTER " + samples.stream().filter(s -> s.getData() != null).count());
        System.out.flush();
    }
}
