package io.sirocco.examples.avionics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import avionics.AirData;
import avionics.AirDataFlat;
import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.dds.loan.LoaningDataWriter;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.core.policy.PolicyFactory;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import org.omg.dds.pub.DataWriter;
import org.omg.dds.topic.Topic;

/**
 * An air-data computer: publishes {@code avionics::AirData} for one aircraft at a fixed rate (default 50 Hz) on
 * the best-effort, keep-last-1 QoS that sensor data usually gets, through Sirocco's zero-copy loan: each sample is
 * written in place through the generated {@link AirDataFlat} view, without a sample object or serialization.
 *
 * <pre>java -cp examples/target/sirocco.jar io.sirocco.examples.avionics.AirDataPublisher 7 50 60</pre>
 * (aircraft id, rate in Hz, seconds). {@code --stall-after N} stops publishing after N samples for a while, to
 * show the display's staleness warning.
 */
public final class AirDataPublisher
{
    public static final String TOPIC = "AirData";

    private AirDataPublisher()
    {
    }

    @SuppressWarnings("unchecked")
    public static void main(final String[] args) throws Exception
    {
        final short aircraft = args.length > 0 ? Short.parseShort(args[0]) : 7;
        final int rateHz = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        final int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        final long stallAfter = args.length > 4 && args[3].equals("--stall-after") ? Long.parseLong(args[4]) : -1;
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(AirDataPublisher.class.getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(0);
        try
        {
            final PolicyFactory pf = PolicyFactory.getPolicyFactory(env);
            final Topic<AirData> topic = participant.createTopic(TOPIC, AirData.class);
            final DataWriter<AirData> writer = participant.createPublisher().createDataWriter(topic,
                participant.createPublisher().getDefaultDataWriterQos().withPolicies(pf.Reliability().withBestEffort(),
                    pf.History().withKeepLast(1)));
            final LoaningDataWriter<AirData> loaning = (LoaningDataWriter<AirData>)writer;
            final AirDataFlat flat = new AirDataFlat();
            final long periodNs = 1_000_000_000L / rateHz;
            final long start = System.nanoTime();
            for (long n = 0; n < (long)rateHz * seconds; n++)
            {
                final long due = start + n * periodNs + (stallAfter >= 0 && n > stallAfter ? 2_000_000_000L : 0);
                while (System.nanoTime() < due)
                {
                    LockSupport.parkNanos(Math.min(due - System.nanoTime(), 1_000_000));
                }
                final double t = n / (double)rateHz;
                try (LoaningDataWriter.WriteLoan loan = loaning.loan(AirDataFlat.SIZE))
                {
                    flat.wrap(loan.segment(), 0).writeHeader().aircraftId(aircraft)
                        .altitudeFt(31_000 + 50 * Math.sin(t / 10)).airspeedKt(452 + Math.cos(t))
                        .verticalSpeedFpm(300 * Math.cos(t / 10)).headingDeg((90 + t) % 360)
                        .staticPressureHpa(287.4).totalAirTempC(-41.5).timestampNs(System.currentTimeMillis() * 1_000_000L);
                    loan.commit();
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        finally
        {
            participant.close();
        }
    }
}
