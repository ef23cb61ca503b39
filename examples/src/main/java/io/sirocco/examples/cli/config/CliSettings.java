package io.sirocco.examples.cli.config;

import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.Settings;
import io.sirocco.transport.config.SettingsCatalog;

/**
 * The settings of the command-line tool itself (keys {@code sirocco.cli.*}, environment {@code SIROCCO_CLI_*}), and
 * the launcher's environment variables. The libraries' settings are in their own modules' catalogs.
 */
public final class CliSettings implements SettingsCatalog
{
    public static final String BENCH_THREAD_STATS = "sirocco.cli.bench.threadStats";
    public static final String BENCH_IDLE = "sirocco.cli.bench.idle";
    public static final String BENCH_MEMBER_TIMEOUT_S = "sirocco.cli.bench.memberTimeoutS";

    @Override
    public String module()
    {
        return "cli";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(
            new Setting(BENCH_THREAD_STATS, "false",
                "mcast-bench diagnostics: each member samples its threads' scheduling into its log"),
            new Setting(BENCH_IDLE, "unset",
                "mcast-bench experiments: spins,yields,maxParkNs replaces the members' idle policy"),
            new Setting(BENCH_MEMBER_TIMEOUT_S, "300",
                "internal: mcast-bench passes its --timeout-s to each member process"));
    }

    @Override
    public List<String> otherEnvironmentVariables()
    {
        return List.of("SIROCCO_REBUILD", "SIROCCO_JAVA_OPTS");
    }

    /** Whether {@value #BENCH_THREAD_STATS} is on. */
    public static boolean benchThreadStats()
    {
        return Settings.booleanValue(BENCH_THREAD_STATS, false);
    }

    /** {@value #BENCH_IDLE}, or null. */
    public static String benchIdle()
    {
        return Settings.string(BENCH_IDLE, null);
    }

    /** {@value #BENCH_MEMBER_TIMEOUT_S}. */
    public static long benchMemberTimeoutS()
    {
        return Settings.longValue(BENCH_MEMBER_TIMEOUT_S, 300);
    }
}
