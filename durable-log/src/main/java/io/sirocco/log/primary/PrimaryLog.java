package io.sirocco.log.primary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sirocco.log.disk.DiskAccess;
import io.sirocco.log.disk.LogFile;

/**
 * The backup's single primary log: small per-zone batches, merged into one write per flush cycle, so that they are
 * on disk before their zone's secondary-log buffer is. Never read except at a cold start ({@link #replay}). When
 * full, the store writes out every secondary-log buffer and the log restarts at offset 0 with the next generation.
 *
 * <pre>
 *   batch record: magic 1 B (0xA5) | pad 3 B | generation 4 B | writerId 8 B | zoneIndex 4 B | length 4 B |
 *                 CRC32C 4 B (of the bytes before it and the entries) | pad 4 B | entries (length bytes)
 * </pre>
 *
 * Single writer: the flusher thread under the store's log lock.
 */
public final class PrimaryLog implements AutoCloseable
{
    public static final int RECORD_HEADER_BYTES = 32;
    private static final byte MAGIC = (byte)0xA5;
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryLog.class);

    private final Path path;
    private final DiskAccess access;
    private final long sizeBytes;
    private final CRC32C crc = new CRC32C();
    private LogFile file;
    private int generation;

    public PrimaryLog(final Path path, final DiskAccess access, final long sizeBytes, final int generation)
        throws IOException
    {
        this.path = path;
        this.access = access;
        this.sizeBytes = sizeBytes;
        this.generation = generation;
        this.file = new LogFile(path, access, 0);
    }

    public Path path()
    {
        return path;
    }

    public long position()
    {
        return file.end();
    }

    public int generation()
    {
        return generation;
    }

    /** Whether {@code bytes} more fit before the end of the log. */
    public boolean fits(final long bytes)
    {
        return file.end() + bytes + 1 <= sizeBytes;
    }

    /** Writes a record header for {@code length} entry bytes already placed at {@code offset + 32} of staging. */
    public void sealRecord(final ByteBuffer buffer, final int offset, final long writerId, final int zoneIndex,
        final int length)
    {
        buffer.put(offset, MAGIC).put(offset + 1, (byte)0).putShort(offset + 2, (short)0);
        buffer.putInt(offset + 4, generation).putLong(offset + 8, writerId).putInt(offset + 16, zoneIndex)
            .putInt(offset + 20, length).putInt(offset + 28, 0);
        crc.reset();
        final ByteBuffer view = buffer.duplicate();
        view.limit(offset + 24).position(offset);
        crc.update(view);
        view.limit(offset + RECORD_HEADER_BYTES + length).position(offset + RECORD_HEADER_BYTES);
        crc.update(view);
        buffer.putInt(offset + 24, (int)crc.getValue());
    }

    public void append(final ByteBuffer source, final int offset, final int length, final ByteBuffer staging)
        throws IOException
    {
        file.append(source, offset, length, staging);
    }

    public void force() throws IOException
    {
        file.force();
    }

    /** Restarts at offset 0 with the next generation; the caller has made every record's data durable elsewhere. */
    public void reset() throws IOException
    {
        file.close();
        generation++;
        file = new LogFile(path, access, 0);
    }

    @Override
    public void close() throws IOException
    {
        file.close();
    }

    /** Receives the batches found by {@link #replay}. */
    public interface BatchHandler
    {
        void onBatch(long writerId, int zoneIndex, ByteBuffer buffer, int offset, int length) throws IOException;
    }

    /**
     * Reads every intact batch of the newest generation in order (a cold start). Stops at the end marker, at a
     * record of another generation, or at a torn or corrupt record (logged with file and offset).
     *
     * @return the generation found, or 0 for an empty log.
     */
    public static int replay(final Path path, final BatchHandler handler) throws IOException
    {
        if (!Files.exists(path))
        {
            return 0;
        }
        final ByteBuffer data;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = in.size();
            data = ByteBuffer.allocate((int)Math.min(size, Integer.MAX_VALUE - 64)).order(ByteOrder.LITTLE_ENDIAN);
            LogFile.readFully(in, data, 0);
            data.flip();
        }
        final CRC32C crc = new CRC32C();
        int position = 0;
        int generation = 0;
        while (position + RECORD_HEADER_BYTES <= data.limit() && data.get(position) == MAGIC)
        {
            final int recordGeneration = data.getInt(position + 4);
            if (generation != 0 && recordGeneration != generation)
            {
                break;
            }
            final int length = data.getInt(position + 20);
            if (length < 0 || position + RECORD_HEADER_BYTES + (long)length > data.limit())
            {
                LOG.warn("durable-log: primary log {} offset {}: torn batch record (length {}); replay stops here",
                    path, position, length);
                break;
            }
            crc.reset();
            crc.update(data.array(), position, 24);
            crc.update(data.array(), position + RECORD_HEADER_BYTES, length);
            if ((int)crc.getValue() != data.getInt(position + 24))
            {
                LOG.warn("durable-log: primary log {} offset {}: batch CRC mismatch; replay stops here",
                    path, position);
                break;
            }
            generation = recordGeneration;
            handler.onBatch(data.getLong(position + 8), data.getInt(position + 16), data,
                position + RECORD_HEADER_BYTES, length);
            position += RECORD_HEADER_BYTES + length;
        }
        return generation;
    }
}
