package io.sirocco.tests.durability;

import java.util.List;
import java.util.stream.Stream;

import io.sirocco.tests.dds.proc.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TRANSIENT's documented contract (docs/durability.md): the history lives in the memory of the zone's backups, so
 * when the writer and every backup of its zone die, the history is lost. Three backups hold a writer's 2,000
 * acknowledged samples; all four processes are SIGKILLed; a fresh backup and a new writer of the same topic come,
 * and a late reader gets only the new writer's samples (1, 2, by digest), nothing of the lost history. Shared memory.
 */
@Timeout(300)
class TransientLossContractTest
{
    private static final List<String> PLAIN = List.of("-Dsirocco.dds.transport=shm", "-Dsirocco.dds.interface=lo",
        "-Dsirocco.dds.suspicion.ms=15000", ChildJvm.QUICK_START, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    private static final List<String> BACKUP = Stream.concat(PLAIN.stream(),
        Stream.of("-Dsirocco.dds.durability.backup=true")).toList();

    @Test
    void historyIsLostOnlyWithEveryBackup() throws Exception
    {
        final String domain = "230";
        try (ChildProcess backup1 = start("backup1", BACKUP, "backup", domain);
             ChildProcess backup2 = start("backup2", BACKUP, "backup", domain);
             ChildProcess backup3 = start("backup3", BACKUP, "backup", domain);
             ChildProcess writer = start("writer", PLAIN, "writer", domain, "2000"))
        {
            assertThat(writer.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120))
                .startsWith("ACKED 2000 ");
            writer.kill();
            backup1.kill();
            backup2.kill();
            backup3.kill();
            try (ChildProcess backup4 = start("backup4", BACKUP, "backup", domain);
                 ChildProcess writer2 = start("writer2", PLAIN, "writer", domain, "1"))
            {
                assertThat(writer2.await(l -> l.startsWith("ACKED ") || l.startsWith("NOT_ACKED"), 120))
                    .startsWith("ACKED 1 ");
                try (ChildProcess late = start("late", PLAIN, "reader", domain, "2"))
                {
                    final String live = writer2.await(l -> l.startsWith("LIVE "), 120);
                    assertThat(late.await(l -> l.startsWith("COMPLETE ") || l.startsWith("BROKEN"), 120))
                        .as("the late reader has the new writer's samples only")
                        .isEqualTo("COMPLETE 2 " + live.split(" ")[2]);
                    final String history = late.lines().stream().filter(l -> l.startsWith("HISTORY ")).findFirst()
                        .orElseThrow();
                    assertThat(Integer.parseInt(history.split(" ")[1])).as("samples in the first take").isLessThan(3);
                    assertThat(backup4.lines()).as("nothing to recover").noneMatch(l -> l.startsWith("RECOVERED"));
                }
            }
        }
    }

    private static ChildProcess start(final String name, final List<String> jvm, final String... args)
        throws Exception
    {
        final ChildProcess child = new ChildProcess(name, DurableNode.class, jvm, args);
        child.await(l -> l.equals("JOINED"), 120);
        return child;
    }
}
