package io.sirocco.log.version;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A zone's version log: fixed 24-byte tuples {@code keyHash 8 | sequence 8 | epoch 2 | flags 2 | version 4}
 * (flags bit 0 = tombstone), appended when an epoch ends and rewritten compacted (one tuple per key) by the
 * cleaner. A torn last tuple is ignored on reading. Buffered I/O (small writes). Single writer under the store's
 * log lock; {@link #readInto} may run on a recovery thread, which reads only whole tuples already written.
 */
public final class VersionLog implements AutoCloseable
{
    public static final int TUPLE_BYTES = 24;

    private final Path path;
    private FileChannel channel;
    private ByteBuffer staging = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);

    public VersionLog(final Path path) throws IOException
    {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        final long size = channel.size();
        channel.position(size - size % TUPLE_BYTES);
    }

    public Path path()
    {
        return path;
    }

    /** Appends every key of {@code buffer} with the epoch it was written in. */
    public void append(final VersionBuffer buffer, final int epoch) throws IOException
    {
        stage(buffer, epoch);
        drain();
    }

    /**
     * Stages the tuples of an ended epoch in memory; {@link #drainStaged} writes them. The flusher ends epochs
     * mid-cycle this way and drains after the cycle's data is written, so the log never gets ahead of the data.
     */
    public void stage(final VersionBuffer buffer, final int epoch)
    {
        final KeyTable table = buffer.table();
        for (int slot = 0; slot < table.capacity(); slot++)
        {
            if (table.usedAt(slot))
            {
                final long value = table.valueAt(slot);
                stageTuple(table.keyHashAt(slot), table.sequenceAt(slot),
                    VersionCodec.pack(epoch, VersionCodec.version(value), VersionCodec.tombstone(value)));
            }
        }
    }

    /** Writes the staged tuples. */
    public void drainStaged() throws IOException
    {
        if (staging.position() > 0)
        {
            drain();
        }
    }

    private void stageTuple(final long keyHash, final long sequence, final long packed)
    {
        if (staging.remaining() < TUPLE_BYTES)
        {
            final ByteBuffer bigger = ByteBuffer.allocate(staging.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
            staging.flip();
            bigger.put(staging);
            staging = bigger;
        }
        staging.putLong(keyHash).putLong(sequence).putShort((short)VersionCodec.epoch(packed))
            .putShort((short)(VersionCodec.tombstone(packed) ? 1 : 0)).putInt(VersionCodec.version(packed));
    }

    private void put(final long keyHash, final long sequence, final long packed) throws IOException
    {
        if (staging.remaining() < TUPLE_BYTES)
        {
            drain();
        }
        staging.putLong(keyHash).putLong(sequence).putShort((short)VersionCodec.epoch(packed))
            .putShort((short)(VersionCodec.tombstone(packed) ? 1 : 0)).putInt(VersionCodec.version(packed));
    }

    private void drain() throws IOException
    {
        staging.flip();
        while (staging.hasRemaining())
        {
            channel.write(staging);
        }
        staging.clear();
    }

    /** Receives version-log tuples (packed by {@link VersionCodec}). */
    public interface TupleHandler
    {
        void onTuple(long keyHash, long sequence, long packedVersion);
    }

    /** Reads every tuple into {@code table}, keeping the newest per key (packed by {@link VersionCodec}). */
    public static void readInto(final Path path, final KeyTable table) throws IOException
    {
        forEach(path, table::putMax);
    }

    /** Streams every whole tuple of the log at {@code path} (none if it does not exist). */
    public static void forEach(final Path path, final TupleHandler handler) throws IOException
    {
        if (!Files.exists(path))
        {
            return;
        }
        final ByteBuffer buffer = ByteBuffer.allocate(TUPLE_BYTES * 8192).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ))
        {
            long position = 0;
            while (true)
            {
                buffer.clear();
                final int n = in.read(buffer, position);
                if (n <= 0)
                {
                    break;
                }
                final int whole = n - n % TUPLE_BYTES;
                if (whole == 0)
                {
                    break;
                }
                position += whole;
                for (int p = 0; p < whole; p += TUPLE_BYTES)
                {
                    final long keyHash = buffer.getLong(p);
                    final long sequence = buffer.getLong(p + 8);
                    final int epoch = buffer.getShort(p + 16) & 0xFFFF;
                    final boolean tombstone = (buffer.getShort(p + 18) & 1) != 0;
                    final int version = buffer.getInt(p + 20);
                    handler.onTuple(keyHash, sequence, VersionCodec.pack(epoch, version, tombstone));
                }
            }
        }
    }

    /**
     * Replaces the log with one tuple per key of {@code table} (crash-safe: written to a temporary file, forced,
     * then renamed over the log).
     */
    public void rewrite(final KeyTable table) throws IOException
    {
        final Path temporary = path.resolveSibling(path.getFileName() + ".compact");
        channel.close();
        channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE, StandardOpenOption.READ);
        for (int slot = 0; slot < table.capacity(); slot++)
        {
            if (table.usedAt(slot))
            {
                put(table.keyHashAt(slot), table.sequenceAt(slot), table.valueAt(slot));
            }
        }
        drain();
        channel.force(true);
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        final long position = channel.position();
        channel.close();
        channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        channel.position(position);
    }

    public void force() throws IOException
    {
        channel.force(false);
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
