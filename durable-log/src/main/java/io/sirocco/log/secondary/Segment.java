package io.sirocco.log.secondary;

import java.nio.file.Path;

/**
 * One segment file of a secondary log. {@code fillBytes} counts live plus dead bytes (the thesis's fill degree);
 * live bytes are only known when the cleaner or recovery reads it. Mutated only under the store's log lock.
 */
public final class Segment
{
    private final long id;
    private final Path path;
    private long fillBytes;
    private final long createdNs;

    public Segment(final long id, final Path path, final long fillBytes, final long createdNs)
    {
        this.id = id;
        this.path = path;
        this.fillBytes = fillBytes;
        this.createdNs = createdNs;
    }

    public long id()
    {
        return id;
    }

    public Path path()
    {
        return path;
    }

    public long fillBytes()
    {
        return fillBytes;
    }

    public void fillBytes(final long v)
    {
        fillBytes = v;
    }

    public long createdNs()
    {
        return createdNs;
    }

    public static String fileName(final long id)
    {
        return String.format("seg-%08d.log", id);
    }

    public static long parseFileName(final String name)
    {
        if (name.startsWith("seg-") && name.endsWith(".log"))
        {
            try
            {
                return Long.parseLong(name.substring(4, name.length() - 4));
            }
            catch (final NumberFormatException ex)
            {
                return -1;
            }
        }
        return -1;
    }
}
