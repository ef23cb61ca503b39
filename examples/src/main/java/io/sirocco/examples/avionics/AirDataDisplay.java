package io.sirocco.examples.avionics;

import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import avionics.AirData;
import io.sirocco.dds.config.ServiceBootstrap;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.event.DataAvailableEvent;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.sub.DataReader;
import org.omg.dds.sub.DataReaderAdapter;
import org.omg.dds.sub.Sample;
import org.omg.dds.topic.Topic;

/**
 * A cockpit display: subscribes to {@code avionics::AirData} with a listener, prints each aircraft's air data twice a
 * second, and raises a deadline-style STALE warning when an aircraft's data is older than {@code stale-ms} (default
 * 3 periods at 50 Hz = 60 ms). The check is the application's own timer: Sirocco does not enforce the Deadline QoS
 * yet (a finite Deadline is rejected with UnsupportedOperationException rather than silently ignored).
 *
 * <pre>java -cp examples/target/sirocco.jar io.sirocco.examples.avionics.AirDataDisplay 60 60</pre>
 * (seconds, stale-ms).
 */
public final class AirDataDisplay
{
    private AirDataDisplay()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        final long staleMs = args.length > 1 ? Long.parseLong(args[1]) : 60;
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(AirDataDisplay.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(0);
        final Screen screen = new Screen(staleMs);
        try
        {
            final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
            final Topic<AirData> topic = participant.createTopic(AirDataPublisher.TOPIC, AirData.class);
            final DataReader<AirData> reader = participant.createSubscriber().createDataReader(topic,
                participant.createSubscriber().getDefaultDataReaderQos().withPolicies(
                    pf.Reliability().withBestEffort(), pf.History().withKeepLast(1)),
                screen, null);
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long nextPrint = System.nanoTime();
            while (System.nanoTime() < end)
            {
                TimeUnit.MILLISECONDS.sleep(Math.max(1, staleMs / 3));
                final long now = System.nanoTime();
                screen.reportStaleness(now);
                if (now >= nextPrint)
                {
                    nextPrint = now + 500_000_000L;
                    screen.print();
                }
            }
            System.out.println("display: matched publications " + reader.getMatchedPublications().size());
        }
        finally
        {
            participant.close();
        }
    }

    /**
     * The latest air data per aircraft, as the reader's listener delivers it, and which aircraft's data has gone
     * stale. The listener writes from the middleware's thread and the main loop reads, so the maps are concurrent.
     */
    private static final class Screen extends DataReaderAdapter<AirData>
    {
        private final long staleMs;
        private final Map<Short, AirData> latest = new ConcurrentHashMap<>();
        private final Map<Short, Long> receivedAtNs = new ConcurrentHashMap<>();
        private final Map<Short, Boolean> stale = new ConcurrentHashMap<>();

        Screen(final long staleMs)
        {
            this.staleMs = staleMs;
        }

        @Override
        public void onDataAvailable(final DataAvailableEvent<AirData> event)
        {
            for (final Sample<AirData> sample : event.getSource().take(new ArrayList<>()))
            {
                final AirData data = sample.getData();
                if (data != null)
                {
                    latest.put(data.aircraftId, data);
                    receivedAtNs.put(data.aircraftId, System.nanoTime());
                }
            }
        }

        /** Prints a line when an aircraft's data goes stale and when it is fresh again. */
        void reportStaleness(final long now)
        {
            for (final Map.Entry<Short, Long> entry : receivedAtNs.entrySet())
            {
                final long ageMs = TimeUnit.NANOSECONDS.toMillis(now - entry.getValue());
                final boolean isStale = ageMs > staleMs;
                if (isStale && !stale.getOrDefault(entry.getKey(), false))
                {
                    System.out.printf("STALE: aircraft %d air data is %d ms old (limit %d ms)%n", entry.getKey(),
                        ageMs, staleMs);
                }
                else if (!isStale && stale.getOrDefault(entry.getKey(), false))
                {
                    System.out.printf("RECOVERED: aircraft %d air data fresh again%n", entry.getKey());
                }
                stale.put(entry.getKey(), isStale);
            }
        }

        void print()
        {
            for (final AirData d : latest.values())
            {
                System.out.printf("aircraft %d  ALT %8.1f ft  IAS %6.1f kt  VS %7.1f fpm  HDG %5.1f%n",
                    d.aircraftId, d.altitudeFt, d.airspeedKt, d.verticalSpeedFpm, d.headingDeg);
            }
        }
    }
}
