package io.sirocco.examples.cli.config;

/**
 * The command-line tool's main class, by name: commands that fork a child {@code sirocco} process (a pong, a sub, a
 * transport peer, a log backup) start it by this name, so they need not depend on the class that lists them as
 * subcommands. {@code CliMainTest} checks the name against the class.
 */
public final class CliMain
{
    public static final String CLASS_NAME = "io.sirocco.examples.cli.SiroccoCli";

    private CliMain()
    {
    }
}
