package io.sirocco.ib.row;

import io.sirocco.ib.verbs.QpConfig;

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
    /** Reads {@code sirocco.rdma.*} system properties (see docs/configuration.md), defaulting each. */
    public static RdmaRowConfig fromSystemProperties()
    {
        final QpConfig d = QpConfig.rowDefaults();
        final PushPlannerConfig p = PushPlannerConfig.defaults();
        final int depth = Integer.getInteger("sirocco.rdma.sendQueueDepth", d.maxSendWr());
        final int inline = Integer.getInteger("sirocco.rdma.maxInlineBytes", d.maxInlineBytes());
        final QpConfig qp = new QpConfig(
            Integer.getInteger("sirocco.rdma.port", d.portNum()),
            Integer.getInteger("sirocco.rdma.gidIndex", d.gidIndex()),
            Integer.getInteger("sirocco.rdma.mtu", d.mtu()),
            depth, d.maxRecvWr(), inline,
            Integer.getInteger("sirocco.rdma.timeout", d.timeout()),
            Integer.getInteger("sirocco.rdma.retryCount", d.retryCount()),
            d.rnrRetry(), d.minRnrTimer());
        final PushPlannerConfig push = new PushPlannerConfig(
            Integer.getInteger("sirocco.rdma.signalEvery", p.signalEvery()), depth, inline,
            Long.getLong("sirocco.rdma.completionTimeoutMs", p.completionTimeoutNs() / 1_000_000) * 1_000_000);
        return new RdmaRowConfig(System.getProperty("sirocco.rdma.device", ""), qp, push,
            Long.getLong("sirocco.rdma.exchangeTimeoutMs", 30_000));
    }
}
