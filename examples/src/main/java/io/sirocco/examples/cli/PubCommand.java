package io.sirocco.examples.cli;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.config.ExitCodes;
import io.sirocco.examples.cli.config.OptionValues;
import io.sirocco.examples.cli.perf.PerfSession;
import io.sirocco.pubsub.pub.DataWriterImpl;
import org.omg.dds.core.policy.History;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.core.policy.QosPolicy;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.topic.Topic;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sirocco pub}: the throughput half of ddsperf's pub/sub. Publishes {@code sirocco.perf.Sample}s
 * (RELIABLE KEEP_ALL by default, or BEST_EFFORT) as fast as possible or at {@code --rate}. With {@code --with-sub} it
 * forks a subscriber and reports the subscriber's receive rate and loss count; alone it reports its send rate.
 *
 * <p>Exit codes ({@code ExitCodes}): 0 done, 1 failure, 4 no subscriber matched within 60 s, 6 this process was
 * excluded from the domain's group during the run; with {@code --with-sub}, else the subscriber's code (5: it lost
 * samples, 6: it was excluded).
 */
@Command(name = "pub", mixinStandardHelpOptions = true, description = "Publish for a throughput test (ddsperf pub).")
public final class PubCommand implements Callable<Integer>
{
    @Option(names = "--size", defaultValue = "1024", description = "payload bytes (default ${DEFAULT-VALUE})",
        converter = OptionValues.PayloadBytes.class)
    int size;

    @Option(names = "--seconds", defaultValue = "10", description = "publishing time (default ${DEFAULT-VALUE})",
        converter = OptionValues.Positive.class)
    int seconds;

    @Option(names = "--rate", defaultValue = "0", description = "samples/s, 0 = as fast as possible",
        converter = OptionValues.NonNegativeLong.class)
    long rate;

    @Option(names = "--best-effort", description = "BEST_EFFORT instead of RELIABLE KEEP_ALL")
    boolean bestEffort;

    @Option(names = "--durability", defaultValue = "volatile", description = "volatile, transient_local, "
        + "transient or persistent (transient, persistent: backups from `sirocco durability-service`; default "
        + "${DEFAULT-VALUE})")
    String durability;

    @Spec
    CommandSpec spec;

    @Mixin
    PerfOptions dds = new PerfOptions();

    @Option(names = "--with-sub", description = "fork a sub process and report what it received")
    boolean withSub;

    @Option(names = "--json", description = "end with one JSON line")
    boolean json;

    @Option(names = "--rtps", description = "speak DDSI-RTPS on ddsperf's data topic and type (Cyclone's ddsperf "
        + "is the other side); interface and peers from sirocco.dds.interface / sirocco.dds.peers")
    boolean rtps;

    @Override
    public Integer call() throws Exception
    {
        if (rtps)
        {
            return RtpsThroughput.pub(dds.domain, size, seconds, rate, !bestEffort);
        }
        try (PerfSession session = dds.session())
        {
            final Topic<sirocco.perf.Sample> topic = session.topic(PerfSession.THROUGHPUT_TOPIC);
            final DataWriter<sirocco.perf.Sample> writer = session.publisher().createDataWriter(topic,
                session.writerQos(!bestEffort, !bestEffort).withPolicies(durabilityPolicies(session)));
            PerfSession.Child child = null;
            try
            {
                if (withSub)
                {
                    child = forkSubscriber();
                }
                if (!PerfSession.await(() -> writer.getPublicationMatchedStatus().getCurrentCount() > 0, 60_000))
                {
                    System.err.println("pub: no subscriber matched within 60 s on domain " + dds.domain);
                    return ExitCodes.NO_PARTNER;
                }
                final long sent = publish(writer);
                try
                {
                    writer.waitForAcknowledgments(30, TimeUnit.SECONDS);
                }
                catch (final TimeoutException ex)
                {
                    // Still close and collect the subscriber's count: it reports what was lost.
                    System.err.println("pub: " + ex.getMessage());
                }
                final long leftOut = writer instanceof DataWriterImpl<?> impl ? impl.samplesFilteredAtWriter() : 0;
                writer.close();
                final int code = child == null ? reportSent(sent) : reportSubscriber(sent, child);
                if (leftOut > 0)
                {
                    System.out.println("pub: " + leftOut + " of the samples not sent: no subscriber's filter " +
                        "passed them (writer-side filtering)");
                }
                return code == ExitCodes.OK ? session.exitCode("pub", 0) : code;
            }
            finally
            {
                if (child != null)
                {
                    child.close();
                }
            }
        }
    }

    /** DURABILITY (and for TRANSIENT a KEEP_ALL DURABILITY_SERVICE: the backups hold every sample) of the writer. */
    private QosPolicy.ForDataWriter[] durabilityPolicies(final PerfSession session)
    {
        final PolicyFactory pf = PolicyFactory.getPolicyFactory(session.participant().getEnvironment());
        return switch (durability)
        {
            case "volatile" -> new QosPolicy.ForDataWriter[] {pf.Durability().withVolatile()};
            case "transient_local" -> new QosPolicy.ForDataWriter[] {pf.Durability().withTransientLocal()};
            case "transient" -> new QosPolicy.ForDataWriter[] {pf.Durability().withTransient(),
                pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)};
            // withPersitent: sic, the OMG PSM's spelling.
            case "persistent" -> new QosPolicy.ForDataWriter[] {pf.Durability().withPersitent(),
                pf.DurabilityService().withHistoryKind(History.Kind.KEEP_ALL)};
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--durability: '" + durability +
                "' is not volatile, transient_local, transient or persistent");
        };
    }

    private PerfSession.Child forkSubscriber() throws IOException
    {
        final List<String> args = dds.partnerArgs("sub", "--json", "--seconds", String.valueOf(seconds + 120));
        if (bestEffort)
        {
            args.add("--best-effort");
        }
        return new PerfSession.Child(args);
    }

    /** Without a forked subscriber: the writer's own rate (nothing can be said of losses). */
    private int reportSent(final long sent)
    {
        final double perSecond = sent / (double)seconds;
        System.out.printf(Locale.ROOT, "pub: sent %d samples, %.0f samples/s, %.1f Mbit/s%n", sent,
            perSecond, perSecond * size * 8 / 1e6);
        if (json)
        {
            System.out.println(String.format(Locale.ROOT, "{\"mode\":\"throughput\",\"transport\":\"%s\"," +
                "\"size\":%d,\"samples_per_s\":%.0f,\"mbit_per_s\":%.1f,\"lost\":null}", dds.transport, size,
                perSecond, perSecond * size * 8 / 1e6));
        }
        return 0;
    }

    /** With a forked subscriber: its report (rate and losses) is the result. */
    private int reportSubscriber(final long sent, final PerfSession.Child child) throws InterruptedException
    {
        final boolean exited = child.waitFor(60_000);
        System.out.println("pub: sent " + sent + " samples; subscriber reports:");
        if (!exited)
        {
            System.err.println("pub: the forked sub did not exit within 60 s after the writer closed" +
                (child.jsonLine().isEmpty() ? "" : " (its result line is below)"));
            System.out.println(child.jsonLine());
            return 1;
        }
        System.out.println(child.lastLine());
        return child.exitCode();
    }

    private long publish(final DataWriter<sirocco.perf.Sample> writer) throws Exception
    {
        final sirocco.perf.Sample sample = new sirocco.perf.Sample(0, 0, 0, new byte[size]);
        final long startNs = System.nanoTime();
        final long endNs = startNs + TimeUnit.SECONDS.toNanos(seconds);
        final long periodNs = rate > 0 ? 1_000_000_000L / rate : 0;
        long seq = 0;
        long now;
        while ((now = System.nanoTime()) < endNs)
        {
            if (periodNs > 0)
            {
                final long dueNs = startNs + seq * periodNs;
                if (now < dueNs)
                {
                    LockSupport.parkNanos(Math.min(dueNs - now, 1_000_000));
                    continue;
                }
            }
            sample.seq = ++seq;
            sample.timestampNs = now;
            try
            {
                writer.write(sample);
            }
            catch (final TimeoutException ex)
            {
                // A reader held the window full for max_blocking_time: stop, and let the subscriber report.
                System.err.println("pub: sample " + seq + " not written: " + ex.getMessage());
                return seq - 1;
            }
        }
        return seq;
    }
}
