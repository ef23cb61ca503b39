package io.sirocco.tests.durability;

/** JVM flags of the durability tests' child processes. */
final class ChildJvm
{
    /**
     * C1 only: a child JVM of these tests lives seconds and writes a few thousand samples, so C2's compiler threads
     * only compete with the group's heartbeats for the cores while it starts (a start to {@code JOINED} measured
     * about twice as fast on a loaded 2-core machine). What the tests assert does not depend on the compiler.
     */
    static final String QUICK_START = "-XX:TieredStopAtLevel=1";

    private ChildJvm()
    {
    }
}
