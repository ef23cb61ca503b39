package io.sirocco.tests;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test opened and must close after it, whatever happened: {@link #close()} closes everything in the reverse of
 * the order added (so a service added first closes last), best effort, and never throws, so a teardown failure never
 * hides the test's own. Registered as an extension ({@code @RegisterExtension}) it closes after each test. One test
 * thread uses it.
 */
public final class Closer implements AutoCloseable, AfterEachCallback
{
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /** Closes c after everything added before it. */
    public <T extends AutoCloseable> T add(final T c)
    {
        closeables.add(c);
        return c;
    }

    /** Closes c after everything else, whenever it was added. */
    public <T extends AutoCloseable> T addLast(final T c)
    {
        closeables.addFirst(c);
        return c;
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        close();
    }

    @Override
    public void close()
    {
        for (final AutoCloseable c : closeables.reversed())
        {
            try
            {
                c.close();
            }
            catch (final Exception ignored)
            {
                // best effort: the test's own failure, if any, is the one to report
            }
        }
        closeables.clear();
    }
}
