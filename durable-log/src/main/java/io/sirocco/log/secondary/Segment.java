package io.sirocco.log.secondary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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

    /** The segment files in a zone directory, by id; a file's fill is its size, at most {@code segmentBytes}. */
    public static List<Segment> listIn(final Path directory, final long segmentBytes) throws IOException
    {
        final long now = System.nanoTime();
        final List<Segment> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)files::iterator)
            {
                final long segmentId = parseFileName(path.getFileName().toString());
                if (segmentId >= 0)
                {
                    found.add(new Segment(segmentId, path, Math.min(Files.size(path), segmentBytes), now));
                }
            }
        }
        found.sort((a, b) -> Long.compare(a.id(), b.id()));
        return found;
    }
}
