package io.sirocco.log.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * An append-only log file (a segment or the primary log) written through page-aligned I/O. Under O_DIRECT every
 * write covers whole blocks: the partial last block is kept in {@code tailBlock} and written again in front of new
 * data, and the bytes after the data up to the block end are zeros, so a reader always finds a 0 type byte after the
 * last entry. Buffered files get the same zero terminator from the pre-zeroed (sparse) file.
 *
 * <p>Single writer: only the store's flusher thread (or the cleaner while it holds the store's log lock) appends.
 */
public final class LogFile implements AutoCloseable
{
    private final Path path;
    private final FileChannel channel;
    private final DiskAccess access;
    private final ByteBuffer tailBlock;
    private long end;

    public LogFile(final Path path, final DiskAccess access, final long end) throws IOException
    {
        this.path = path;
        this.access = access;
        this.channel = access.openForAppend(path);
        this.tailBlock = AlignedBuffers.allocate(access.blockSize(), access.blockSize());
        this.end = end;
        if (access.direct() && (end % access.blockSize()) != 0)
        {
            final long start = AlignedBuffers.alignDown(end, access.blockSize());
            tailBlock.clear();
            readFully(channel, tailBlock, start);
        }
    }

    public Path path()
    {
        return path;
    }

    /** Bytes appended so far (the write position). */
    public long end()
    {
        return end;
    }

    /**
     * Appends {@code length} bytes of {@code source} from {@code offset}. {@code staging} is an aligned buffer of at
     * least two blocks owned by the calling thread; larger sources are written in several I/Os.
     */
    public void append(final ByteBuffer source, final int offset, final int length, final ByteBuffer staging)
        throws IOException
    {
        try
        {
            appendUnchecked(source, offset, length, staging);
        }
        catch (final IOException ex)
        {
            throw new IOException(path + " at offset " + end + ": " + ex.getMessage(), ex);
        }
    }

    private void appendUnchecked(final ByteBuffer source, final int offset, final int length, final ByteBuffer staging)
        throws IOException
    {
        if (!access.direct())
        {
            final ByteBuffer view = source.duplicate();
            view.limit(offset + length).position(offset);
            long position = end;
            while (view.hasRemaining())
            {
                position += channel.write(view, position);
            }
            end = position;
            return;
        }
        final int block = access.blockSize();
        int done = 0;
        while (done < length)
        {
            final int pre = (int)(end % block);
            final int room = staging.capacity() - pre - block;
            final int chunk = Math.min(room, length - done);
            staging.clear();
            if (pre > 0)
            {
                staging.put(0, tailBlock, 0, pre);
            }
            staging.put(pre, source, offset + done, chunk);
            final int dataEnd = pre + chunk;
            final int ioEnd = (int)AlignedBuffers.alignUp(dataEnd + 1L, block);
            for (int i = dataEnd; i < ioEnd; i++)
            {
                staging.put(i, (byte)0);
            }
            final long start = end - pre;
            staging.limit(ioEnd).position(0);
            long position = start;
            while (staging.hasRemaining())
            {
                position += channel.write(staging, position);
            }
            end += chunk;
            done += chunk;
            final int lastBlock = (int)AlignedBuffers.alignDown(dataEnd, block);
            tailBlock.clear();
            tailBlock.put(0, staging, lastBlock, block);
        }
    }

    /** fsync of the data (not the metadata that does not affect reads). */
    public void force() throws IOException
    {
        try
        {
            channel.force(false);
        }
        catch (final IOException ex)
        {
            throw new IOException(path + ": fsync failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }

    /** Reads {@code buffer.remaining()} bytes at {@code position}, or up to end of file; returns bytes read. */
    public static int readFully(final FileChannel channel, final ByteBuffer buffer, final long position)
        throws IOException
    {
        int total = 0;
        while (buffer.hasRemaining())
        {
            final int n = channel.read(buffer, position + total);
            if (n < 0)
            {
                break;
            }
            total += n;
        }
        return total;
    }
}
