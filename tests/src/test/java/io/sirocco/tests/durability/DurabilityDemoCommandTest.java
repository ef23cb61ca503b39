package io.sirocco.tests.durability;

import io.sirocco.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sirocco durability-demo} with a small N: its child processes (two backups, the publisher, the late joiner,
 * the replacement) over shared memory; the JSON line reports every acknowledged sample recovered with the
 * publisher's digest and the replacement resuming at N+1; the same with {@code --kind persistent}, whose backups keep
 * the zone on disk. An unknown kind is a usage error.
 */
class DurabilityDemoCommandTest
{
    @Test
    @Timeout(600)
    void demoRecoversEverySampleAndTheReplacementResumesAfterThem()
    {
        final CliRun run = CliRun.execute("durability-demo", "--samples", "3000", "--size", "100", "--backups", "2",
            "--json");
        assertThat(run.exit()).as(run.text()).isZero();
        assertThat(run.text()).contains("  publisher: 3000/3000 written", "  late joiner: 2700/3000 held");
        assertThat(run.lastLine()).matches("\\{\"kind\":\"transient\",\"written_acked\":3000,\"recovered\":3000,"
            + "\"digest_match\":true,\"recover_ms\":\\d+,\"replacement_resumed_at\":3001}");
    }

    /** PERSISTENT: the backups get data directories under a temporary directory, which the demo removes. */
    @Test
    @Timeout(600)
    void persistentDemoRecoversEverySampleFromTheBackupsDisks()
    {
        final CliRun run = CliRun.execute("durability-demo", "--kind", "persistent", "--samples", "3000", "--backups",
            "2", "--json");
        assertThat(run.exit()).as(run.text()).isZero();
        assertThat(run.text()).contains("3000 64-byte PERSISTENT samples", "  publisher: 3000/3000 written");
        assertThat(run.lastLine()).matches("\\{\"kind\":\"persistent\",\"written_acked\":3000,\"recovered\":3000,"
            + "\"digest_match\":true,\"recover_ms\":\\d+,\"replacement_resumed_at\":3001}");
    }

    @Test
    @Timeout(60)
    void anUnknownKindIsAUsageError()
    {
        final CliRun run = CliRun.execute("durability-demo", "--kind", "volatile");
        assertThat(run.exit()).isEqualTo(2);
    }
}
