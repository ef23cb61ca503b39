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
import org.omg.dds.core.policy.History;
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
 * A child process of the PERSISTENT durability tests, through the standard DDS API only, line by line on stdout.
 * <ul>
 * <li>{@code backup <domain>}: as {@link DurableNode}'s backup (the test sets the backup and data-directory keys).</li>
 * <li>{@code writer <domain> <n>}: a PERSISTENT RELIABLE KEEP_ALL writer writes samples 1..n (x = i), waits for
 * acknowledgments (on the backups' disks) and prints {@code ACKED n <digest>}, or {@code NOT_ACKED <reason>}, then
 * waits to be killed.</li>
 * <li>{@code reader <domain> <n>}: a late PERSISTENT reader; prints {@code HISTORY <count>} after
 * waitForHistoricalData, then takes until n samples and prints {@code COMPLETE n <digest>}, or {@code BROKEN <why>}
 * at the first sample out of order, repeated or beyond n.</li>
 * <li>{@code survivors <domain> <count> <total>}: a late PERSISTENT reader that expects {@code count} of the samples
 * 1..total (some were lost to damage): takes until it holds {@code count}, each intact ({@code Shape("S", x, 0, 1)})
 * and in increasing order, and prints {@code SURVIVORS <count> <missing x values, comma-separated, or ->}, or
 * {@code BROKEN <why>} at a sample out of order, repeated, beyond total or not as written.</li>
 * <li>{@code fill <domain>}: a PERSISTENT RELIABLE KEEP_ALL writer writes until {@code write} refuses a sample
 * (at most 10,000,000) and prints {@code REFUSED <samples accepted> <the exception's message>} (or
 * {@code NEVER_REFUSED}), then waits for the acknowledgment of the accepted ones and prints {@code ACKED <n>} or
 * {@code NOT_ACKED <reason>}.</li>
 * <li>{@code bench <domain> <n> <volatile|transient|persistent>}: a RELIABLE KEEP_ALL writer of that durability
 * writes n samples, waits for acknowledgments, and prints {@code BENCH <kind> <n> <write ms> <acked ms>
 * <samples/s>} (a figure for the report, run by hand; not a test).</li>
 * </ul>
 * The digest is SHA-256 over the x values in delivery order, as {@link DurableNode}'s.
 */
public final class PersistentNode
{
    private static final String TOPIC = "PersistentShapes";

    private PersistentNode()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(PersistentNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<Shape> topic = participant.createTopic(TOPIC, Shape.class);
        switch (args[0])
        {
            case "writer" -> write(participant, pf, topic, Integer.parseInt(args[2]));
            case "reader" -> read(participant, pf, topic, Integer.parseInt(args[2]));
            case "survivors" -> survivors(participant, pf, topic, Integer.parseInt(args[2]),
                Integer.parseInt(args[3]));
            case "fill" -> fill(participant, pf, topic);
            case "bench" -> bench(participant, pf, topic, Integer.parseInt(args[2]), args[3]);
            default -> throw new IllegalArgumentException("unknown role " + args[0]);
        }
    }

    private static void write(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int n) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.Durability().withPersitent(), pf.History().withKeepAll(),
                pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)));
        println("JOINED");
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (int i = 1; i <= n; i++)
        {
            writer.write(new Shape("S", i, 0, 1));
            digest.update(Integer.toString(i).getBytes());
        }
        try
        {
            writer.waitForAcknowledgments(120, TimeUnit.SECONDS);
            println("ACKED " + n + " " + HexFormat.of().formatHex(digest.digest()));
        }
        catch (final TimeoutException ex)
        {
            println("NOT_ACKED " + ex.getMessage());
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void fill(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic)
        throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.Durability().withPersitent(), pf.History().withKeepAll(),
                pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)));
        println("JOINED");
        final Shape shape = new Shape("S", 0, 0, 1);
        int accepted = 0;
        try
        {
            while (accepted < 10_000_000)
            {
                shape.x = accepted + 1;
                writer.write(shape);
                accepted++;
            }
            println("NEVER_REFUSED");
        }
        catch (final org.omg.dds.core.OutOfResourcesException ex)
        {
            println("REFUSED " + accepted + " " + ex.getMessage());
        }
        try
        {
            writer.waitForAcknowledgments(120, TimeUnit.SECONDS);
            println("ACKED " + accepted);
        }
        catch (final TimeoutException ex)
        {
            println("NOT_ACKED " + ex.getMessage());
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void bench(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int n, final String kind) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final org.omg.dds.core.policy.Durability durability = switch (kind)
        {
            case "persistent" -> pf.Durability().withPersitent();
            case "transient" -> pf.Durability().withTransient();
            default -> pf.Durability().withVolatile();
        };
        final DataWriter<Shape> writer = publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos()
            .withPolicies(pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS), durability,
                pf.History().withKeepAll(), pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)));
        println("JOINED");
        final Shape shape = new Shape("S", 0, 0, 1);
        final long start = System.nanoTime();
        for (int i = 1; i <= n; i++)
        {
            shape.x = i;
            writer.write(shape);
        }
        final long written = System.nanoTime();
        writer.waitForAcknowledgments(120, TimeUnit.SECONDS);
        final long acked = System.nanoTime();
        println("BENCH " + kind + " " + n + " " + (written - start) / 1_000_000 + " " + (acked - start) / 1_000_000
            + " " + (long)(n / ((acked - start) / 1e9)));
        System.exit(0);
    }

    private static void read(final DomainParticipant participant, final PolicyFactory pf, final Topic<Shape> topic,
        final int total) throws Exception
    {
        final DataReader<Shape> reader = lateReader(participant, pf, topic);
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final List<Sample<Shape>> samples = new ArrayList<>();
        int last = 0;
        boolean first = true;
        while (true)
        {
            reader.take(samples);
            if (first)
            {
                println("HISTORY " + samples.size());
                first = false;
            }
            for (final Sample<Shape> sample : samples)
            {
                final Shape shape = sample.getData();
                if (shape == null)
                {
                    continue;
                }
                if (shape.x != last + 1 || last == total)
                {
                    println("BROKEN after " + last + " came " + shape.x);
                    Thread.sleep(Long.MAX_VALUE);
                }
                last = shape.x;
                digest.update(Integer.toString(last).getBytes());
                if (last == total)
                {
                    println("COMPLETE " + total + " " + HexFormat.of().formatHex(digest.digest()));
                }
            }
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(500_000L);
            }
        }
    }

    private static void survivors(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<Shape> topic, final int count, final int total) throws Exception
    {
        final DataReader<Shape> reader = lateReader(participant, pf, topic);
        final java.util.BitSet seen = new java.util.BitSet(total + 1);
        final List<Sample<Shape>> samples = new ArrayList<>();
        int last = 0;
        int held = 0;
        while (held < count)
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                final Shape shape = sample.getData();
                if (shape == null)
                {
                    continue;
                }
                if (shape.x <= last || shape.x > total || !"S".equals(shape.color) || shape.y != 0
                    || shape.size != 1)
                {
                    println("BROKEN after " + last + " came " + shape);
                    Thread.sleep(Long.MAX_VALUE);
                }
                last = shape.x;
                seen.set(last);
                held++;
            }
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(500_000L);
            }
        }
        final java.util.StringJoiner missing = new java.util.StringJoiner(",");
        for (int x = seen.nextClearBit(1); x <= total; x = seen.nextClearBit(x + 1))
        {
            missing.add(Integer.toString(x));
        }
        println("SURVIVORS " + held + " " + (missing.length() == 0 ? "-" : missing.toString()));
        Thread.sleep(Long.MAX_VALUE);
    }

    /** A late PERSISTENT reader, matched and past waitForHistoricalData (prints {@code JOINED} once created). */
    private static DataReader<Shape> lateReader(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<Shape> topic) throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<Shape> reader = subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos()
            .withPolicies(pf.Reliability().withReliable(), pf.Durability().withPersitent(),
                pf.History().withKeepAll()));
        println("JOINED");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (reader.getSubscriptionMatchedStatus().getCurrentCount() < 1 && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(1_000_000L);
        }
        reader.waitForHistoricalData(60, TimeUnit.SECONDS);
        return reader;
    }

    private static void println(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }
}
