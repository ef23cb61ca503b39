package io.sirocco.ib;

import io.sirocco.transport.config.Settings;

/**
 * The ib-native module's one typed configuration: every {@code sirocco.ib.*} key, read through {@link Settings}
 * (the system property, else the environment variable {@code SIROCCO_IB_...}). The queue-pair keys are shared by the
 * RDMA row transport and the IB messaging transport, each with its own defaults (its {@code QpConfig}), so those
 * readers take the caller's default. {@link IbSettingsCatalog} lists the same keys. Stateless and thread-safe; the
 * readers are called when a transport is created, never on a data path.
 */
public final class IbConfiguration
{
    public static final String DEVICE_PROP = "sirocco.ib.device";
    public static final String DEVICE_DEFAULT = "";

    public static final String PORT_PROP = "sirocco.ib.port";
    public static final String GID_INDEX_PROP = "sirocco.ib.gidIndex";
    public static final String MTU_PROP = "sirocco.ib.mtu";
    public static final String SEND_QUEUE_DEPTH_PROP = "sirocco.ib.sendQueueDepth";
    public static final String MAX_INLINE_BYTES_PROP = "sirocco.ib.maxInlineBytes";
    public static final String SIGNAL_EVERY_PROP = "sirocco.ib.signalEvery";
    public static final String TIMEOUT_PROP = "sirocco.ib.timeout";
    public static final String RETRY_COUNT_PROP = "sirocco.ib.retryCount";
    public static final String COMPLETION_TIMEOUT_MS_PROP = "sirocco.ib.completionTimeoutMs";

    public static final String EXCHANGE_TIMEOUT_MS_PROP = "sirocco.ib.exchangeTimeoutMs";
    public static final long EXCHANGE_TIMEOUT_MS_DEFAULT = 30_000;

    public static final String SRQ_DEPTH_PROP = "sirocco.ib.srqDepth";
    public static final int SRQ_DEPTH_DEFAULT = 512;

    public static final String SEND_SLOTS_PROP = "sirocco.ib.sendSlots";
    public static final int SEND_SLOTS_DEFAULT = 16;

    public static final String AUTO_FALLBACK_PROP = "sirocco.ib.autoFallback";
    public static final String AUTO_FALLBACK_DEFAULT = "nio";

    private IbConfiguration()
    {
    }

    /** The RDMA device to use; empty: the first one listed. */
    public static String device()
    {
        return Settings.string(DEVICE_PROP, DEVICE_DEFAULT);
    }

    /** An integer setting of this module, defaulting to the caller's (a queue-pair or push-planner default). */
    public static int intValue(final String key, final int defaultValue)
    {
        return Settings.intValue(key, defaultValue);
    }

    /** A long setting of this module, defaulting to the caller's. */
    public static long longValue(final String key, final long defaultValue)
    {
        return Settings.longValue(key, defaultValue);
    }

    public static long exchangeTimeoutMs()
    {
        return Settings.longValue(EXCHANGE_TIMEOUT_MS_PROP, EXCHANGE_TIMEOUT_MS_DEFAULT);
    }

    public static int srqDepth()
    {
        return Settings.intValue(SRQ_DEPTH_PROP, SRQ_DEPTH_DEFAULT);
    }

    public static int sendSlots()
    {
        return Settings.intValue(SEND_SLOTS_PROP, SEND_SLOTS_DEFAULT);
    }

    /** The messaging transport {@code auto} uses when RDMA is unavailable. */
    public static String autoFallback()
    {
        return Settings.string(AUTO_FALLBACK_PROP, AUTO_FALLBACK_DEFAULT);
    }
}
