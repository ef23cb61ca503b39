package io.sirocco.examples.cli.durable;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.pubsub.durability.WriterIdentity;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.Durability;
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
 * One process of {@code sirocco durability-demo}, through the standard DDS API (and the durability node's counters for
 * what the demo prints). Its configuration comes as system properties from the demo; it talks to the demo in lines on
 * stdout (and reads {@code GO} on stdin as a subscriber).
 * <ul>
 * <li>{@code backup <domain> <kind>}: holds backup zones; prints {@code JOINED}, then {@code RECOVERED <n>} per failed
 * writer whose history it recovered.</li>
 * <li>{@code publisher <domain> <kind> <from> <to> <size>}: a writer of durability {@code kind} ({@code transient} or
 * {@code persistent}) (its identity from the demo) writes samples
 * {@code from..to} of {@code size} payload bytes, prints {@code WRITTEN <k>} progress, then {@code ACKED <to>
 * <digest>} once its backups hold them (a replacement prints {@code RESUMED <first sequence number>} first).</li>
 * <li>{@code subscriber <domain> <kind> <n>}: prints {@code JOINED}; on {@code GO} creates a late-joining reader of
 * that durability,
 * prints {@code HELD <k>} progress and {@code HOLDS <n> <digest> <epoch ms>} when it holds sample n, then
 * {@code NEXT <seq>} at the first newer sample; {@code BROKEN <why>} at a sample out of order or repeated.</li>
 * </ul>
 * The digest is SHA-256 over each sample's seq (8 bytes, big-endian) and payload, in delivery order.
 */
public final class DemoRole
{
    static final String TOPIC = "DurabilityDemo";

    private DemoRole()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(DemoRole.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final Topic<sirocco.perf.Sample> topic = participant.createTopic(TOPIC, sirocco.perf.Sample.class);
        final Durability durability = args[2].equals("persistent") ? pf.Durability().withPersitent()
            : pf.Durability().withTransient();
        switch (args[0])
        {
            case "publisher" -> publish(participant, pf, topic, durability, Long.parseLong(args[3]),
                Long.parseLong(args[4]), Integer.parseInt(args[5]));
            case "subscriber" -> subscribe(participant, pf, topic, durability, Long.parseLong(args[3]));
            default -> backup(participant);
        }
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    private static void backup(final DomainParticipant participant)
    {
        final ParticipantImpl impl = (ParticipantImpl)participant;
        say("JOINED");
        final List<Long> reported = new ArrayList<>();
        while (true)
        {
            for (final long writer : impl.durability().recovered().recoveredWriters())
            {
                if (!reported.contains(writer))
                {
                    reported.add(writer);
                    say("RECOVERED " + impl.durability().recovered().samplesOf(writer).size());
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static void publish(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<sirocco.perf.Sample> topic, final Durability durability, final long from, final long to,
        final int size) throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final DataWriter<sirocco.perf.Sample> writer = publisher.createDataWriter(topic,
            publisher.getDefaultDataWriterQos().withPolicies(
                pf.Reliability().withReliable().withMaxBlockingTime(60, TimeUnit.SECONDS),
                durability, pf.History().withKeepAll(), pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)));
        final long resumedAfter = ((ParticipantImpl)participant).durability().resumedAfter(
            WriterIdentity.guidOf(System.getProperty(WriterIdentity.KEY, ""), TOPIC));
        if (resumedAfter >= 0)
        {
            say("RESUMED " + (resumedAfter + 1));
        }
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final sirocco.perf.Sample sample = new sirocco.perf.Sample(0, 0, 0, new byte[size]);
        final long step = Math.max(1, (to - from + 1) / 10);
        for (long i = from; i <= to; i++)
        {
            sample.seq = i;
            fill(sample.payload, i);
            writer.write(sample);
            update(digest, i, sample.payload);
            if ((i - from + 1) % step == 0)
            {
                say("WRITTEN " + (i - from + 1));
            }
        }
        writer.waitForAcknowledgments(300, TimeUnit.SECONDS);
        say("ACKED " + to + " " + HexFormat.of().formatHex(digest.digest()));
        Thread.sleep(Long.MAX_VALUE);
    }

    static void fill(final byte[] payload, final long seq)
    {
        for (int i = 0; i < payload.length; i++)
        {
            payload[i] = (byte)(seq * 31 + i);
        }
    }

    private static void update(final MessageDigest digest, final long seq, final byte[] payload)
    {
        digest.update(ByteBuffer.allocate(8).putLong(0, seq).array());
        digest.update(payload);
    }

    private static void subscribe(final DomainParticipant participant, final PolicyFactory pf,
        final Topic<sirocco.perf.Sample> topic, final Durability durability, final long n) throws Exception
    {
        say("JOINED");
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("GO"))
        {
            // the demo says GO once the publisher is dead: this reader is a late joiner
        }
        final Subscriber subscriber = participant.createSubscriber();
        final DataReader<sirocco.perf.Sample> reader = subscriber.createDataReader(topic,
            subscriber.getDefaultDataReaderQos().withPolicies(pf.Reliability().withReliable(), durability,
                pf.History().withKeepAll()));
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final List<Sample<sirocco.perf.Sample>> samples = new ArrayList<>();
        final long step = Math.max(1, n / 10);
        long last = 0;
        while (true)
        {
            reader.take(samples);
            for (final Sample<sirocco.perf.Sample> s : samples)
            {
                final sirocco.perf.Sample data = s.getData();
                if (data == null)
                {
                    continue;
                }
                if (data.seq != last + 1)
                {
                    say("BROKEN after " + last + " came " + data.seq);
                    Thread.sleep(Long.MAX_VALUE);
                }
                last = data.seq;
                if (last <= n)
                {
                    update(digest, last, data.payload);
                }
                if (last % step == 0 && last < n)
                {
                    say("HELD " + last);
                }
                if (last == n)
                {
                    say("HOLDS " + n + " " + HexFormat.of().formatHex(digest.digest()) + " " +
                        System.currentTimeMillis());
                }
                else if (last == n + 1)
                {
                    say("NEXT " + last);
                }
            }
            if (samples.isEmpty())
            {
                LockSupport.parkNanos(200_000L);
            }
        }
    }
}
