package io.sirocco.examples.cli.soak;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.examples.cli.perf.PerfSession;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.Sample;

/**
 * One soak process: a RELIABLE KEEP_ALL publisher or subscriber on the soak topic, talking to the supervisor over
 * its standard streams. Arguments: {@code pub|sub id transport domain rate size readers}.
 *
 * <p>A publisher writes {@code sirocco.perf.Sample}s with {@code keyval} = its id and {@code seq} = 1, 2, ... at
 * {@code rate} a second, once {@code readers} readers matched; prints {@code READY}, then {@code SENT n timeouts}
 * each second. A subscriber prints {@code READY} once its reader exists, then {@code STAT ...} each second
 * ({@link SeqChecker#statLine()}). When standard input ends, a publisher waits for its acknowledgments and prints
 * {@code DONE n timeouts}; a subscriber takes what is left, prints its last {@code STAT} and {@code DONE}.
 */
public final class SoakNodeMain
{
    public static final String TOPIC = "sirocco_soak";
    private static final long REPORT_NS = TimeUnit.SECONDS.toNanos(1);

    private SoakNodeMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String role = args[0];
        final long id = Long.parseLong(args[1]);
        final StdinClosed stop = StdinClosed.watch(System.in);
        try (PerfSession session = new PerfSession(args[2], Integer.parseInt(args[3])))
        {
            if ("pub".equals(role))
            {
                publish(session, id, Long.parseLong(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                    stop);
            }
            else
            {
                subscribe(session, stop);
            }
        }
        System.out.flush();
        System.exit(0);
    }

    private static void publish(final PerfSession session, final long id, final long rate, final int size,
        final int readers, final StdinClosed stop) throws Exception
    {
        final DataWriter<sirocco.perf.Sample> writer = session.publisher().createDataWriter(
            session.topic(TOPIC), session.writerQos(true, true));
        if (!PerfSession.await(() -> writer.getPublicationMatchedStatus().getCurrentCount() >= readers, 120_000))
        {
            System.out.println("FAIL no " + readers + " readers matched within 120 s");
            System.exit(4);
        }
        System.out.println("READY");
        final sirocco.perf.Sample sample = new sirocco.perf.Sample((int)id, 0, 0, new byte[size]);
        final long periodNs = 1_000_000_000L / rate;
        final long startNs = System.nanoTime();
        long nextReportNs = startNs + REPORT_NS;
        long seq = 0;
        long timeouts = 0;
        while (!stop.closed())
        {
            final long now = System.nanoTime();
            final long dueNs = startNs + seq * periodNs;
            if (now < dueNs)
            {
                LockSupport.parkNanos(Math.min(dueNs - now, 1_000_000));
                continue;
            }
            sample.seq = seq + 1;
            sample.timestampNs = now;
            try
            {
                writer.write(sample);
                seq++;
            }
            catch (final TimeoutException ex)
            {
                // Not written: the same seq is written again, so the stream stays gap-free; counted and reported.
                timeouts++;
            }
            if (now >= nextReportNs)
            {
                System.out.println("SENT " + seq + " " + timeouts);
                nextReportNs = now + REPORT_NS;
            }
        }
        try
        {
            writer.waitForAcknowledgments(60, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            System.out.println("UNACKED " + ex.getMessage());
        }
        System.out.println("DONE " + seq + " " + timeouts);
        writer.close();
    }

    private static void subscribe(final PerfSession session, final StdinClosed stop) throws Exception
    {
        final DataReader<sirocco.perf.Sample> reader = session.subscriber().createDataReader(session.topic(TOPIC),
            session.readerQos(true, true));
        System.out.println("READY");
        final SeqChecker checker = new SeqChecker();
        long nextReportNs = System.nanoTime() + REPORT_NS;
        while (!stop.closed())
        {
            if (!take(reader, checker))
            {
                LockSupport.parkNanos(5_000_000L);
            }
            final long now = System.nanoTime();
            if (now >= nextReportNs)
            {
                System.out.println(checker.statLine());
                nextReportNs = now + REPORT_NS;
            }
        }
        while (take(reader, checker))
        {
            // Drain what arrived before the end.
        }
        System.out.println(checker.statLine());
        System.out.println("DONE");
    }

    /** Takes what the reader holds into the checker; whether there was anything. */
    private static boolean take(final DataReader<sirocco.perf.Sample> reader, final SeqChecker checker)
        throws Exception
    {
        boolean any = false;
        try (Sample.Iterator<sirocco.perf.Sample> it = reader.take())
        {
            while (it.hasNext())
            {
                final sirocco.perf.Sample sample = it.next().getData();
                if (sample != null)
                {
                    checker.accept(Integer.toUnsignedLong(sample.keyval), sample.seq);
                    any = true;
                }
            }
        }
        return any;
    }
}
