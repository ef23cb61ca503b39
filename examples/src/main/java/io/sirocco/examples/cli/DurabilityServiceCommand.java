package io.sirocco.examples.cli;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.sirocco.dds.config.ServiceBootstrap;
import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.pubsub.domain.ParticipantImpl;
import io.sirocco.pubsub.durability.DurabilityConfig;
import io.sirocco.pubsub.durability.DurabilityNode;
import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.domain.DomainParticipantFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sirocco durability-service}: a headless participant that holds backup zones for the TRANSIENT writers of a
 * domain (the role of RTI's Persistence Service or OpenSplice's durability service), and prints each failed
 * writer's history it recovers. Runs until killed or {@code --seconds}.
 */
@Command(name = "durability-service", mixinStandardHelpOptions = true,
    description = "Hold backup zones for a domain's TRANSIENT writers (docs/durability.md).")
public final class DurabilityServiceCommand implements Callable<Integer>
{
    @Option(names = "--domain", defaultValue = "0", description = "DDS domain (default ${DEFAULT-VALUE})")
    int domain;

    @Option(names = "--data-dir", defaultValue = "", description = "backup store directory (default: temporary)")
    String dataDir;

    @Option(names = "--transport", defaultValue = "", description = "row transport (default: sirocco.dds.transport)")
    String transport;

    @Option(names = "--seconds", defaultValue = "0", description = "stop after this long (default 0: never)")
    long seconds;

    @Override
    public Integer call() throws Exception
    {
        // The participant reads its configuration from system properties when it is created.
        System.setProperty(DurabilityConfig.BACKUP, "true");
        if (!dataDir.isEmpty())
        {
            System.setProperty(DurabilityConfig.DIRECTORY, dataDir);
        }
        if (!transport.isEmpty())
        {
            System.setProperty(SiroccoConfig.TRANSPORT, transport);
        }
        final ServiceEnvironment env = ServiceBootstrap.createEnvironment(getClass().getClassLoader());
        final DomainParticipant participant = DomainParticipantFactory.getInstance(env).createParticipant(domain);
        try
        {
            final DurabilityNode node = ((ParticipantImpl)participant).durability();
            System.out.println("durability-service: log node " + node.nodeId() + " holds backups for domain " +
                domain);
            System.out.flush();
            final long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            final Set<Long> reported = new HashSet<>();
            while (seconds == 0 || System.nanoTime() - endNs < 0)
            {
                for (final long writer : node.recovered().recoveredWriters())
                {
                    if (reported.add(writer))
                    {
                        System.out.println("durability-service: recovered writer " + Long.toHexString(writer) +
                            ": " + node.recovered().samplesOf(writer).size() + " samples");
                        System.out.flush();
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            return 0;
        }
        finally
        {
            participant.close();
        }
    }
}
