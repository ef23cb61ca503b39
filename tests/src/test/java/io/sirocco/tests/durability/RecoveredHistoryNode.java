package io.sirocco.tests.durability;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
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
 * A child process of {@link RecoveredHistoryBoundariesTest}, through the standard DDS API, line by line on stdout.
 * Each case is a topic {@code <name>:<samples>:<instances>:<depth>} (depth 0: DURABILITY_SERVICE KEEP_ALL, else
 * KEEP_LAST(depth)); sample x = 1..samples goes to instance {@code "C" + x % instances}.
 * <ul>
 * <li>{@code writer <domain> <case>...}: one TRANSIENT RELIABLE writer per case writes its samples, waits for the
 * backups to hold them and prints {@code ACKED <name> <count> <digest>}: the count and digest of the history the
 * DURABILITY_SERVICE keeps (every sample, or the last {@code depth} of each instance), x values in ascending order.</li>
 * <li>{@code reader <domain> <case>...}: one late TRANSIENT RELIABLE KEEP_ALL reader per case; once its history is
 * in the cache ({@code waitForHistoricalData}), prints {@code GOT <name> <count> <digest>} over what it took (x values
 * in ascending order), or {@code BROKEN <name> after <x> came <y>} at a sample repeated or out of order in its
 * instance.</li>
 * </ul>
 */
public final class RecoveredHistoryNode
{
    private RecoveredHistoryNode()
    {
    }

    private record Case(String name, int samples, int instances, int depth)
    {
        static Case parse(final String spec)
        {
            final String[] f = spec.split(":");
            return new Case(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]));
        }
    }

    public static void main(final String[] args) throws Exception
    {
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(RecoveredHistoryNode.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env)
            .createParticipant(Integer.parseInt(args[1]));
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
        final List<Case> cases = new ArrayList<>();
        for (int i = 2; i < args.length; i++)
        {
            cases.add(Case.parse(args[i]));
        }
        say("JOINED");
        if (args[0].equals("writer"))
        {
            write(participant, pf, cases);
        }
        else
        {
            read(participant, pf, cases);
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void say(final String line)
    {
        System.out.println(line);
        System.out.flush();
    }

    private static void write(final DomainParticipant participant, final PolicyFactory pf, final List<Case> cases)
        throws Exception
    {
        final Publisher publisher = participant.createPublisher();
        final List<DataWriter<Shape>> writers = new ArrayList<>();
        for (final Case c : cases)
        {
            final Topic<Shape> topic = participant.createTopic(c.name(), Shape.class);
            writers.add(publisher.createDataWriter(topic, publisher.getDefaultDataWriterQos().withPolicies(
                pf.Reliability().withReliable().withMaxBlockingTime(30, TimeUnit.SECONDS),
                pf.Durability().withTransient(), pf.History().withKeepAll(), c.depth() == 0
                    ? pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)
                    : pf.DurabilityService().withHistoryKind(History.Kind.KEEP_LAST).withHistoryDepth(c.depth()))));
        }
        for (int w = 0; w < cases.size(); w++)
        {
            final Case c = cases.get(w);
            for (int x = 1; x <= c.samples(); x++)
            {
                writers.get(w).write(new Shape("C" + x % c.instances(), x, 0, 1));
            }
        }
        for (int w = 0; w < cases.size(); w++)
        {
            final Case c = cases.get(w);
            try
            {
                writers.get(w).waitForAcknowledgments(120, TimeUnit.SECONDS);
            }
            catch (final TimeoutException ex)
            {
                say("NOT_ACKED " + c.name() + " " + ex.getMessage());
                continue;
            }
            final TreeSet<Integer> kept = new TreeSet<>();
            final int[] perInstance = new int[c.instances()];
            for (int x = c.samples(); x >= 1; x--)
            {
                if (c.depth() == 0 || perInstance[x % c.instances()]++ < c.depth())
                {
                    kept.add(x);
                }
            }
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (final int x : kept)
            {
                digest.update(Integer.toString(x).getBytes());
            }
            say("ACKED " + c.name() + " " + kept.size() + " " + HexFormat.of().formatHex(digest.digest()));
        }
    }

    private static void read(final DomainParticipant participant, final PolicyFactory pf, final List<Case> cases)
        throws Exception
    {
        final Subscriber subscriber = participant.createSubscriber();
        final List<DataReader<Shape>> readers = new ArrayList<>();
        for (final Case c : cases)
        {
            final Topic<Shape> topic = participant.createTopic(c.name(), Shape.class);
            readers.add(subscriber.createDataReader(topic, subscriber.getDefaultDataReaderQos().withPolicies(
                pf.Reliability().withReliable(), pf.Durability().withTransient(), pf.History().withKeepAll())));
        }
        for (int r = 0; r < cases.size(); r++)
        {
            final DataReader<Shape> reader = readers.get(r);
            // An empty history may be served by nobody (a zone nothing was written to holds nothing to recover).
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(cases.get(r).samples() == 0 ? 0 : 120);
            while (reader.getSubscriptionMatchedStatus().getCurrentCount() < 1 && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(1_000_000L);
            }
            reader.waitForHistoricalData(120, TimeUnit.SECONDS);
            takeHistory(cases.get(r).name(), reader);
        }
    }

    /**
     * Takes what the cache holds (the history is in it) and prints GOT with the digest over the x values in ascending
     * order, or BROKEN at the first sample repeated or out of order within its instance (take() groups samples by
     * instance, so order is checked per instance).
     */
    private static void takeHistory(final String name, final DataReader<Shape> reader) throws Exception
    {
        final java.util.Map<String, Integer> lastOfInstance = new java.util.HashMap<>();
        final TreeSet<Integer> got = new TreeSet<>();
        final List<Sample<Shape>> samples = new ArrayList<>();
        do
        {
            reader.take(samples);
            for (final Sample<Shape> sample : samples)
            {
                final Shape shape = sample.getData();
                if (shape == null)
                {
                    continue;
                }
                final int last = lastOfInstance.getOrDefault(shape.color, 0);
                if (shape.x <= last || !got.add(shape.x))
                {
                    say("BROKEN " + name + " after " + last + " came " + shape.x + " (instance " + shape.color + ")");
                    return;
                }
                lastOfInstance.put(shape.color, shape.x);
            }
        }
        while (!samples.isEmpty());
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (final int x : got)
        {
            digest.update(Integer.toString(x).getBytes());
        }
        say("GOT " + name + " " + got.size() + " " + HexFormat.of().formatHex(digest.digest()));
    }
}
