package io.sirocco.tests.dds;

import java.util.List;

import io.sirocco.tests.dds.proc.ChildProcess;
import io.sirocco.tests.dds.proc.TransientLocalNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TRANSIENT_LOCAL between processes over the group bus: a writer created after the reader, in a member that is
 * already in the topic's subgroup (so its own record reaches its participant at once, while the reader's member
 * learns it through the discovery subgroup), writes as soon as it is matched. The reader must get every sample of
 * every round: a reader that got the writer's end-of-history mark before the writer's record would drop the whole
 * stream (the race found in-process in LocalDomain).
 */
@Timeout(300)
class MultiProcessTransientLocalTest
{
    private static final int ROUNDS = 30;
    private static final List<String> JVM = List.of("-Dsirocco.dds.transport=shm",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    @Test
    void everyLateWriterReachesTheEarlierReader() throws Exception
    {
        rounds(false);
    }

    /**
     * The same with each writer closed right after waitForAcknowledgments: its retraction travels in the discovery
     * subgroup, its samples in the topic's, and the reader's member must not hand the retraction to its participant
     * (which then drops the writer and any sample of it still on its way) before those samples (docs/dds.md).
     */
    @Test
    void writersClosedAfterAcknowledgmentLoseNoSample() throws Exception
    {
        rounds(true);
    }

    private static void rounds(final boolean close) throws Exception
    {
        final String domain = String.valueOf(Dds.newDomain());
        try (ChildProcess reader = new ChildProcess("reader", TransientLocalNode.class, JVM, "reader", domain))
        {
            reader.await(l -> l.equals("JOINED"), 60);
            try (ChildProcess writer = new ChildProcess("writer", TransientLocalNode.class, JVM, "writer", domain,
                String.valueOf(ROUNDS), close ? "close" : "open"))
            {
                for (int round = 1; round <= ROUNDS; round++)
                {
                    final String wrote = "WROTE " + round + " ";
                    final String complete = "COMPLETE " + round;
                    try
                    {
                        writer.await(l -> l.startsWith(wrote), 90);
                        reader.await(l -> l.equals(complete), 30);
                    }
                    catch (final AssertionError ex)
                    {
                        throw new AssertionError("round " + round + ": " + ex.getMessage() + "\nprocesses:" +
                            ChildProcess.tails(30, reader, writer), ex);
                    }
                }
            }
        }
    }
}
