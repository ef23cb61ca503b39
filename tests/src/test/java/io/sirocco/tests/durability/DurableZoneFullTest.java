package io.sirocco.tests.durability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PERSISTENT writer whose history outgrows its zone (set small, {@code sirocco.dds.durability.zone.mb=8}, on the
 * writer and its two backups, over shared memory, one process each) is refused on {@code write} with
 * OUT_OF_RESOURCES naming the zone, its size and the key to raise, instead of waiting silently in
 * {@code waitForAcknowledgments}; every sample it accepted before is acknowledged on the backups' disks.
 */
@Timeout(300)
class DurableZoneFullTest
{
    private static final String DOMAIN = "214";
    private static final String ZONE_MIB = "-Dsirocco.dds.durability.zone.mb=8";

    @TempDir
    Path dataDirs;

    @Test
    void aFullZoneIsAnErrorOnWriteAndWhatWasAcceptedIsAcknowledged() throws Exception
    {
        final List<ChildProcess> all = new ArrayList<>();
        try
        {
            for (int b = 1; b <= 2; b++)
            {
                final List<String> jvm = Stream.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
                    "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START,
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-Dsirocco.dds.durability.backup=true", "-Dsirocco.durable.data.dir=" + dataDirs.resolve("b" + b),
                    ZONE_MIB).toList();
                all.add(PersistentDurabilityTest.start("backup" + b, jvm, DurableNode.class, "backup", DOMAIN));
            }
            final ChildProcess writer = PersistentDurabilityTest.start("writer", List.of("-Dsirocco.dds.transport=shm",
                "-Dsirocco.dds.interface=lo", "-Dsirocco.dds.suspicion.ms=15000",
                ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", ZONE_MIB), PersistentNode.class,
                "fill", DOMAIN);
            all.add(writer);
            final String refused = writer.await(l -> l.startsWith("REFUSED ") || l.startsWith("NEVER_REFUSED"), 180);
            assertThat(refused).as("write refuses the sample that does not fit").startsWith("REFUSED ")
                .contains("durable history full", "zone(writer=", "8 MiB", "sirocco.dds.durability.zone.mb");
            final int accepted = Integer.parseInt(refused.split(" ")[1]);
            // 3/4 of 8 MiB in entries of about 100 bytes: tens of thousands, never a handful.
            assertThat(accepted).as("samples accepted before the zone was full").isGreaterThan(20_000);
            assertThat(writer.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120))
                .as("every accepted sample is on the backups' disks").isEqualTo("ACKED " + accepted);
            for (final ChildProcess backup : all.subList(0, 2))
            {
                assertThat(backup.lines()).as("no backup's log overflowed")
                    .noneMatch(l -> l.contains("secondary log full"));
            }
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "\nprocesses:" + ChildProcess.tails(30,
                all.toArray(ChildProcess[]::new)), ex);
        }
        finally
        {
            for (final ChildProcess p : all)
            {
                p.close();
            }
        }
    }
}
