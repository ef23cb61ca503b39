package io.sirocco.log.config;

/**
 * Settings of a backup store, with the thesis's tuned values as defaults (see docs/configuration.md). Mutable
 * builder in the Aeron context style: {@code new LogConfig().segmentSizeBytes(1 << 20).syncPolicy(GROUP)}. A store
 * takes a copy at open, so later changes do not affect it.
 */
public final class LogConfig implements Cloneable
{
    public static final int MIB = 1 << 20;
    public static final int KIB = 1 << 10;

    private long zoneSizeLimitBytes = 256L * MIB;
    private int replicationFactor = 3;
    private int segmentSizeBytes = 8 * MIB;
    private int secondaryLogSegments = 64;
    private int writeBufferBytes = 16 * MIB;
    private long flushIntervalNs = 100_000_000L;
    private int directThresholdBytes = 128 * KIB;
    private long primaryLogSizeBytes = 64L * MIB;
    private int versionBufferSlots = 1 << 16;
    private double versionBufferFlushFill = 0.65;
    private double cleanerActivation = 0.60;
    private double cleanerPrompt = 0.75;
    private int cleanerSegmentsPerPass = 20;
    private double cleanerMinGarbage = 0.10;
    private long cleanerIntervalNs = 50_000_000L;
    private boolean cleanerEnabled = true;
    private SyncPolicy syncPolicy = SyncPolicy.GROUP;
    private boolean directIo = true;
    private int recoveryThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    /** Maximum payload bytes the owner puts in one zone before it opens the next one. Default 256 MiB. */
    public long zoneSizeLimitBytes()
    {
        return zoneSizeLimitBytes;
    }

    public LogConfig zoneSizeLimitBytes(final long v)
    {
        zoneSizeLimitBytes = v;
        return this;
    }

    /** Backups per zone, in fixed order. Default 3. */
    public int replicationFactor()
    {
        return replicationFactor;
    }

    public LogConfig replicationFactor(final int v)
    {
        replicationFactor = v;
        return this;
    }

    /** Size of one secondary-log segment file. Default 8 MiB. An entry is at most half a segment. */
    public int segmentSizeBytes()
    {
        return segmentSizeBytes;
    }

    public LogConfig segmentSizeBytes(final int v)
    {
        segmentSizeBytes = v;
        return this;
    }

    /** Segments per secondary log (its capacity). Default 64 (512 MiB = 2 x zone size with 8 MiB segments). */
    public int secondaryLogSegments()
    {
        return secondaryLogSegments;
    }

    public LogConfig secondaryLogSegments(final int v)
    {
        secondaryLogSegments = v;
        return this;
    }

    /** Bytes of one write-buffer half; a half is flushed when full, so this is also the size trigger. 16 MiB. */
    public int writeBufferBytes()
    {
        return writeBufferBytes;
    }

    public LogConfig writeBufferBytes(final int v)
    {
        writeBufferBytes = v;
        return this;
    }

    /** Time trigger of a write-buffer flush under {@code NONE}. Default 100 ms. */
    public long flushIntervalNs()
    {
        return flushIntervalNs;
    }

    public LogConfig flushIntervalNs(final long v)
    {
        flushIntervalNs = v;
        return this;
    }

    /**
     * Per-zone batches of at least this many bytes go straight to the secondary log; smaller ones go to the primary
     * log plus the zone's secondary-log buffer of this same size. Default 128 KiB; 0 disables the primary log.
     */
    public int directThresholdBytes()
    {
        return directThresholdBytes;
    }

    public LogConfig directThresholdBytes(final int v)
    {
        directThresholdBytes = v;
        return this;
    }

    /** Size of the single primary log; when full, all secondary buffers are flushed and it restarts at 0. 64 MiB. */
    public long primaryLogSizeBytes()
    {
        return primaryLogSizeBytes;
    }

    public LogConfig primaryLogSizeBytes(final long v)
    {
        primaryLogSizeBytes = v;
        return this;
    }

    /** Slots of a zone's version buffer (open addressing, 24 B each). Default 65,536 (1.5 MiB). */
    public int versionBufferSlots()
    {
        return versionBufferSlots;
    }

    public LogConfig versionBufferSlots(final int v)
    {
        versionBufferSlots = v;
        return this;
    }

    /** Fill of the version buffer that ends the epoch and appends it to the version log. Default 0.65. */
    public double versionBufferFlushFill()
    {
        return versionBufferFlushFill;
    }

    public LogConfig versionBufferFlushFill(final double v)
    {
        versionBufferFlushFill = v;
        return this;
    }

    /** Secondary-log utilization above which the cleaner works on a log periodically. Default 0.60. */
    public double cleanerActivation()
    {
        return cleanerActivation;
    }

    public LogConfig cleanerActivation(final double v)
    {
        cleanerActivation = v;
        return this;
    }

    /** Utilization at which a write registers a prompt cleaning request, served first. Default 0.75. */
    public double cleanerPrompt()
    {
        return cleanerPrompt;
    }

    public LogConfig cleanerPrompt(final double v)
    {
        cleanerPrompt = v;
        return this;
    }

    /** Segments examined per selected log, to amortize loading its version log. Default 20. */
    public int cleanerSegmentsPerPass()
    {
        return cleanerSegmentsPerPass;
    }

    public LogConfig cleanerSegmentsPerPass(final int v)
    {
        cleanerSegmentsPerPass = v;
        return this;
    }

    /** A segment is rewritten only if at least this fraction of it is garbage. Default 0.10. */
    public double cleanerMinGarbage()
    {
        return cleanerMinGarbage;
    }

    public LogConfig cleanerMinGarbage(final double v)
    {
        cleanerMinGarbage = v;
        return this;
    }

    /** Period of the cleaner's check for logs above activation. Default 50 ms. */
    public long cleanerIntervalNs()
    {
        return cleanerIntervalNs;
    }

    public LogConfig cleanerIntervalNs(final long v)
    {
        cleanerIntervalNs = v;
        return this;
    }

    /** Whether the background cleaner thread runs. Default true; urgent cleaning of a full log runs regardless. */
    public boolean cleanerEnabled()
    {
        return cleanerEnabled;
    }

    public LogConfig cleanerEnabled(final boolean v)
    {
        cleanerEnabled = v;
        return this;
    }

    /** When entries are acknowledged. Default {@code GROUP}. */
    public SyncPolicy syncPolicy()
    {
        return syncPolicy;
    }

    public LogConfig syncPolicy(final SyncPolicy v)
    {
        syncPolicy = v;
        return this;
    }

    /** Use O_DIRECT where the file system supports it (falls back to buffered I/O, logged). Default true. */
    public boolean directIo()
    {
        return directIo;
    }

    public LogConfig directIo(final boolean v)
    {
        directIo = v;
        return this;
    }

    /** Threads that scan segments in a local recovery. Default min(4, cores). */
    public int recoveryThreads()
    {
        return recoveryThreads;
    }

    public LogConfig recoveryThreads(final int v)
    {
        recoveryThreads = v;
        return this;
    }

    /** Checks the settings against each other; throws IllegalArgumentException naming the bad setting. */
    public LogConfig validate()
    {
        require(segmentSizeBytes >= 64 * KIB && Integer.bitCount(segmentSizeBytes) == 1,
            "segmentSizeBytes must be a power of two >= 64 KiB: " + segmentSizeBytes);
        require(secondaryLogSegments >= 3, "secondaryLogSegments must be >= 3: " + secondaryLogSegments);
        require(writeBufferBytes >= 64 * KIB, "writeBufferBytes must be >= 64 KiB: " + writeBufferBytes);
        require(directThresholdBytes >= 0 && directThresholdBytes <= segmentSizeBytes / 2,
            "directThresholdBytes must be in [0, segmentSizeBytes/2]: " + directThresholdBytes);
        require(primaryLogSizeBytes >= 2L * writeBufferBytes,
            "primaryLogSizeBytes must be >= 2 x writeBufferBytes: " + primaryLogSizeBytes);
        require(Integer.bitCount(versionBufferSlots) == 1 && versionBufferSlots >= 64,
            "versionBufferSlots must be a power of two >= 64: " + versionBufferSlots);
        require(versionBufferFlushFill > 0 && versionBufferFlushFill < 0.95,
            "versionBufferFlushFill must be in (0, 0.95): " + versionBufferFlushFill);
        require(cleanerActivation > 0 && cleanerActivation <= cleanerPrompt && cleanerPrompt <= 1.0,
            "need 0 < cleanerActivation <= cleanerPrompt <= 1: " + cleanerActivation + ", " + cleanerPrompt);
        require(replicationFactor >= 1, "replicationFactor must be >= 1: " + replicationFactor);
        require(recoveryThreads >= 1, "recoveryThreads must be >= 1: " + recoveryThreads);
        return this;
    }

    /** Largest payload of one entry: half a segment minus the largest header. */
    public int maxPayloadBytes()
    {
        return segmentSizeBytes / 2 - 64;
    }

    @Override
    public LogConfig clone()
    {
        try
        {
            return (LogConfig)super.clone();
        }
        catch (final CloneNotSupportedException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException("durable-log config: " + message);
        }
    }
}
