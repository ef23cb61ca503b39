package io.sirocco.examples.cli.config;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The CLI's log level. By default the tool prints its results and nothing else: the SLF4J backend logs WARN and
 * above ({@code simplelogger.properties}). {@code --verbose} brings INFO, {@code --log-level LEVEL} any level. The
 * flags are read from the raw arguments before any logger exists, because slf4j-simple fixes its level when the
 * first logger is created (which class loading of a subcommand can already do); picocli declares them too
 * ({@code SiroccoCli}), so they appear in the help and are accepted on every subcommand. Child processes forked by
 * a command get the same level through {@link #childJvmOptions()}.
 */
public final class LogLevels
{
    public static final String PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
    public static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

    private LogLevels()
    {
    }

    /**
     * Sets the backend's level from {@code --verbose} or {@code --log-level LEVEL} / {@code --log-level=LEVEL} in
     * {@code args} (the last one wins); leaves it alone when neither is given. An unknown level is left for picocli
     * to reject as a usage error.
     */
    public static void applyFrom(final String[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            String level = null;
            if ("--verbose".equals(arg))
            {
                level = "info";
            }
            else if ("--log-level".equals(arg) && i + 1 < args.length)
            {
                level = args[i + 1];
            }
            else if (arg.startsWith("--log-level="))
            {
                level = arg.substring("--log-level=".length());
            }
            if (level != null && LEVELS.contains(level.toLowerCase(Locale.ROOT)))
            {
                System.setProperty(PROPERTY, level.toLowerCase(Locale.ROOT));
            }
        }
    }

    /** JVM options that give a forked child this process's log level. */
    public static List<String> childJvmOptions()
    {
        final String level = System.getProperty(PROPERTY);
        return level == null ? List.of() : List.of("-D" + PROPERTY + "=" + level);
    }
}
