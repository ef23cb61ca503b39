package io.sirocco.tests.dds.proc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Starts a {@link ShapeNode} at the same instant as its siblings: {@code <latch file> <ShapeNode args...>} prints
 * {@code READY} once its JVM is up, waits (polling every millisecond, at most 120 s) until the test creates the latch
 * file, then runs {@link ShapeNode#main}. JVM start-up takes seconds on a loaded machine, so without the latch
 * processes "started together" would create their participants seconds apart.
 */
public final class LatchedStart
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(120);

    private LatchedStart()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path latch = Path.of(args[0]);
        System.out.println("READY");
        System.out.flush();
        final long deadline = System.nanoTime() + WAIT_NS;
        while (!Files.exists(latch))
        {
            if (System.nanoTime() - deadline > 0)
            {
                System.out.println("LATCH_TIMEOUT " + latch);
                System.exit(3);
            }
            LockSupport.parkNanos(1_000_000L);
        }
        ShapeNode.main(Arrays.copyOfRange(args, 1, args.length));
    }
}
