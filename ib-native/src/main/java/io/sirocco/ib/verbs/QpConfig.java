package io.sirocco.ib.verbs;

/**
 * Queue-pair parameters. Defaults follow Derecho's SST QPs (timeout 4, i.e. 4.096 µs x 2^4 = 65 µs per try,
 * retry 6, RNR retry 0, 256 outstanding sends); the messaging transport raises {@code rnrRetry} to 7 (retry
 * forever), as Ibdxnet does, because its receive buffers are refilled asynchronously.
 *
 * @param portNum        HCA port, from 1
 * @param gidIndex       source GID index for the GRH (RoCE v2 is usually 1 on rxe, 3 on mlx5 with IPv4)
 * @param mtu            {@code enum ibv_mtu} path MTU (5 = 4096; capped to the port's active MTU by the caller)
 * @param maxSendWr      send queue depth
 * @param maxRecvWr      receive queue depth (unused with an SRQ)
 * @param maxInlineBytes inline data the send queue must accept (guards are 8 bytes)
 * @param timeout        local ACK timeout exponent
 * @param retryCount     transport retries before {@code IBV_WC_RETRY_EXC_ERR}
 * @param rnrRetry       receiver-not-ready retries (7 = infinite)
 * @param minRnrTimer    RNR NAK timer code
 */
public record QpConfig(int portNum, int gidIndex, int mtu, int maxSendWr, int maxRecvWr, int maxInlineBytes,
    int timeout, int retryCount, int rnrRetry, int minRnrTimer)
{
    /** Derecho-like settings for SST row QPs. */
    public static QpConfig rowDefaults()
    {
        return new QpConfig(1, 0, 5, 256, 1, 64, 4, 6, 0, 12);
    }

    /** Ibdxnet-like settings for messaging QPs (SRQ, infinite RNR retry). */
    public static QpConfig messagingDefaults()
    {
        return new QpConfig(1, 0, 5, 256, 1, 64, 14, 7, 7, 1);
    }
}
