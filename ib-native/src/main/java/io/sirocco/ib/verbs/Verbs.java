package io.sirocco.ib.verbs;

/**
 * The {@code verbs.h} enum values Sirocco passes or reads. Values are ABI (they are what the kernel and providers
 * see), copied from the header's enums.
 */
public final class Verbs
{
    /** {@code IBV_ACCESS_LOCAL_WRITE}. */
    public static final int ACCESS_LOCAL_WRITE = 1;
    /** {@code IBV_ACCESS_REMOTE_WRITE}. */
    public static final int ACCESS_REMOTE_WRITE = 1 << 1;
    /** {@code IBV_ACCESS_REMOTE_READ}. */
    public static final int ACCESS_REMOTE_READ = 1 << 2;

    /** {@code IBV_QPT_RC}: reliable connected queue pair. */
    public static final int QPT_RC = 2;

    /** {@code IBV_QPS_RESET}. */
    public static final int QPS_RESET = 0;
    /** {@code IBV_QPS_INIT}. */
    public static final int QPS_INIT = 1;
    /** {@code IBV_QPS_RTR}: ready to receive. */
    public static final int QPS_RTR = 2;
    /** {@code IBV_QPS_RTS}: ready to send. */
    public static final int QPS_RTS = 3;
    /** {@code IBV_QPS_ERR}. */
    public static final int QPS_ERR = 6;

    /** {@code IBV_QP_STATE}. */
    public static final int QP_STATE = 1;
    /** {@code IBV_QP_ACCESS_FLAGS}. */
    public static final int QP_ACCESS_FLAGS = 1 << 3;
    /** {@code IBV_QP_PKEY_INDEX}. */
    public static final int QP_PKEY_INDEX = 1 << 4;
    /** {@code IBV_QP_PORT}. */
    public static final int QP_PORT = 1 << 5;
    /** {@code IBV_QP_AV}. */
    public static final int QP_AV = 1 << 7;
    /** {@code IBV_QP_PATH_MTU}. */
    public static final int QP_PATH_MTU = 1 << 8;
    /** {@code IBV_QP_TIMEOUT}. */
    public static final int QP_TIMEOUT = 1 << 9;
    /** {@code IBV_QP_RETRY_CNT}. */
    public static final int QP_RETRY_CNT = 1 << 10;
    /** {@code IBV_QP_RNR_RETRY}. */
    public static final int QP_RNR_RETRY = 1 << 11;
    /** {@code IBV_QP_RQ_PSN}. */
    public static final int QP_RQ_PSN = 1 << 12;
    /** {@code IBV_QP_MAX_QP_RD_ATOMIC}. */
    public static final int QP_MAX_QP_RD_ATOMIC = 1 << 13;
    /** {@code IBV_QP_MIN_RNR_TIMER}. */
    public static final int QP_MIN_RNR_TIMER = 1 << 15;
    /** {@code IBV_QP_SQ_PSN}. */
    public static final int QP_SQ_PSN = 1 << 16;
    /** {@code IBV_QP_MAX_DEST_RD_ATOMIC}. */
    public static final int QP_MAX_DEST_RD_ATOMIC = 1 << 17;
    /** {@code IBV_QP_DEST_QPN}. */
    public static final int QP_DEST_QPN = 1 << 20;

    /** {@code IBV_WR_RDMA_WRITE}. */
    public static final int WR_RDMA_WRITE = 0;
    /** {@code IBV_WR_SEND}. */
    public static final int WR_SEND = 2;
    /** {@code IBV_WR_SEND_WITH_IMM}. */
    public static final int WR_SEND_WITH_IMM = 3;

    /** {@code IBV_SEND_SIGNALED}: this work request produces a completion. */
    public static final int SEND_SIGNALED = 1 << 1;
    /** {@code IBV_SEND_INLINE}: the payload is copied into the WQE at post time. */
    public static final int SEND_INLINE = 1 << 3;

    /** {@code IBV_WC_SUCCESS}. */
    public static final int WC_SUCCESS = 0;
    /** {@code IBV_WC_WR_FLUSH_ERR}: the QP went to error; flushed, not itself the cause. */
    public static final int WC_WR_FLUSH_ERR = 5;
    /** {@code IBV_WC_RETRY_EXC_ERR}: the peer stopped acknowledging (dead or unreachable). */
    public static final int WC_RETRY_EXC_ERR = 12;
    /** {@code IBV_WC_RECV}: opcode bit of receive completions. */
    public static final int WC_RECV = 1 << 7;
    /** {@code IBV_WC_WITH_IMM}: the completion carries immediate data. */
    public static final int WC_WITH_IMM = 1 << 1;

    /** {@code IBV_LINK_LAYER_INFINIBAND}. */
    public static final int LINK_LAYER_INFINIBAND = 1;
    /** {@code IBV_LINK_LAYER_ETHERNET} (RoCE, including Soft-RoCE {@code rxe}). */
    public static final int LINK_LAYER_ETHERNET = 2;

    /** {@code IBV_PORT_ACTIVE}. */
    public static final int PORT_ACTIVE = 4;

    private Verbs()
    {
    }

    /** {@code enum ibv_mtu} (1..5) to bytes (256..4096); 0 for an unknown value. */
    public static int mtuBytes(final int ibvMtu)
    {
        return ibvMtu >= 1 && ibvMtu <= 5 ? 128 << ibvMtu : 0;
    }

    /** {@code enum ibv_port_state} as {@code ibv_port_state_str} spells it. */
    public static String portStateName(final int state)
    {
        return switch (state)
        {
            case 0 -> "NOP";
            case 1 -> "DOWN";
            case 2 -> "INIT";
            case 3 -> "ARMED";
            case 4 -> "ACTIVE";
            case 5 -> "ACTIVE_DEFER";
            default -> "UNKNOWN(" + state + ")";
        };
    }

    /** {@code enum ibv_wc_status} names, indexed by value (checked against the header by the conformance test). */
    static final String[] WC_STATUS_NAMES = {
        "IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR", "IBV_WC_LOC_EEC_OP_ERR",
        "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
        "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
        "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR", "IBV_WC_REM_INV_RD_REQ_ERR",
        "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR",
        "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR", "IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE",
    };

    /**
     * A completion status for messages, without calling the library: {@code IBV_WC_RETRY_EXC_ERR (12)}. Cold path
     * only (it concatenates).
     */
    public static String wcStatusText(final int status)
    {
        return (status >= 0 && status < WC_STATUS_NAMES.length ? WC_STATUS_NAMES[status] : "unknown status")
            + " (" + status + ")";
    }

    /** {@code enum ibv_link_layer} as a word. */
    public static String linkLayerName(final int linkLayer)
    {
        return switch (linkLayer)
        {
            case LINK_LAYER_INFINIBAND -> "InfiniBand";
            case LINK_LAYER_ETHERNET -> "Ethernet";
            default -> "unspecified";
        };
    }
}
