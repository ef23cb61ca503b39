package io.sirocco.tests.log;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.sirocco.tests.CliRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sirocco log-bench} runs briefly with in-process and with forked backups, recovers backup 0 completely and
 * ends with the JSON line the issue specifies. Checks the fields and the recovered count, never the rates.
 */
@Timeout(180)
class LogBenchCommandTest
{
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void logsRecoversAndEndsWithOneJsonLine(final boolean fork)
    {
        final CliRun run = fork
            ? CliRun.execute("log-bench", "--entries", "20000", "--zones", "3", "--backups", "2", "--sync", "group",
                "--fork", "--recover", "--json")
            : CliRun.execute("log-bench", "--entries", "20000", "--zones", "3", "--backups", "2", "--sync", "group",
                "--recover", "--json");
        final String json = run.lastLine();
        assertThat(run.exit()).as(run.text()).isZero();
        assertThat(json).startsWith("{").endsWith("}")
            .contains("\"bench\":\"log-bench\"", "\"entries\":20000", "\"backups\":2", "\"forked\":" + fork,
                "\"sync\":\"group\"", "\"entries_per_s\":", "\"mb_per_s\":", "\"recover_ms\":",
                "\"recovered_entries\":20000,", "\"recover_damages\":0,");
    }

    @org.junit.jupiter.api.Test
    void overwriteWorkloadWithTheCleanerRecoversOnlyTheNewestVersions()
    {
        // 34 MB of entries through a 24 MiB log
        final CliRun run = CliRun.execute("log-bench", "--entries", "400000", "--keys", "500", "--cleaner",
            "--log-segments", "3", "--recover", "--json");
        final String json = run.lastLine();
        assertThat(run.exit()).as(run.text()).isZero();
        assertThat(json).contains("\"keys\":500,", "\"cleaner\":true,", "\"segments_cleaned\":",
            "\"recovered_entries\":500,", "\"recover_damages\":0,").doesNotContain("\"segments_cleaned\":0,");
    }
}
