package io.sirocco.ib.row;

import io.sirocco.ib.IbConfiguration;
import io.sirocco.ib.verbs.QpConfig;

import static io.sirocco.ib.IbConfiguration.*;

/**
 * Configuration of the RDMA row transport.
 *
 * @param deviceName        RDMA device to use ({@code ""}: the first one listed)
 * @param queuePair         queue-pair parameters (port, GID index, MTU, depth, timeouts)
 * @param push              push-planner tuning (signal cadence, completion deadline)
 * @param exchangeTimeoutMs deadline of the TCP endpoint exchange and of the barrier after it
 */
public record RdmaRowConfig(String deviceName, QpConfig queuePair, PushPlannerConfig push, long exchangeTimeoutMs)
{
    /** Reads the {@code sirocco.ib.*} settings ({@link IbConfiguration}, docs/configuration.md), defaulting each. */
    public static RdmaRowConfig fromSystemProperties()
    {
        final QpConfig d = QpConfig.rowDefaults();
        final PushPlannerConfig p = PushPlannerConfig.defaults();
        final int depth = IbConfiguration.intValue(SEND_QUEUE_DEPTH_PROP, d.maxSendWr());
        final int inline = IbConfiguration.intValue(MAX_INLINE_BYTES_PROP, d.maxInlineBytes());
        final QpConfig qp = new QpConfig(
            IbConfiguration.intValue(PORT_PROP, d.portNum()),
            IbConfiguration.intValue(GID_INDEX_PROP, d.gidIndex()),
            IbConfiguration.intValue(MTU_PROP, d.mtu()),
            depth, d.maxRecvWr(), inline,
            IbConfiguration.intValue(TIMEOUT_PROP, d.timeout()),
            IbConfiguration.intValue(RETRY_COUNT_PROP, d.retryCount()),
            d.rnrRetry(), d.minRnrTimer());
        final PushPlannerConfig push = new PushPlannerConfig(
            IbConfiguration.intValue(SIGNAL_EVERY_PROP, p.signalEvery()), depth, inline,
            IbConfiguration.longValue(COMPLETION_TIMEOUT_MS_PROP, p.completionTimeoutNs() / 1_000_000) * 1_000_000);
        return new RdmaRowConfig(IbConfiguration.device(), qp, push, IbConfiguration.exchangeTimeoutMs());
    }
}
