package io.sirocco.ib.verbs;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Every libibverbs struct Sirocco touches, declared once, here, and nowhere else (rdma-core {@code verbs.h},
 * Linux LP64). Each top-level layout is named after its C type ({@code "struct ibv_qp_attr"}), each member after its C
 * field, so {@code VerbsLayoutConformanceTest} can generate a C program printing {@code sizeof}/{@code offsetof} for
 * every bound field and compare.
 *
 * <p>Padding is computed by {@link #struct}, which places each member at its natural alignment exactly as the C ABI
 * does, so nobody counts padding bytes by hand. Anonymous unions whose members are all 32-bit ({@code imm_data} in
 * {@code ibv_send_wr} and {@code ibv_wc}) are bound as their first member. Structs the library allocates and we only
 * read ({@link #IBV_CONTEXT}, {@link #IBV_QP}, {@link #IBV_CQ}, {@link #IBV_SRQ}, {@link #IBV_MR}, {@link #IBV_PD},
 * {@link #IBV_DEVICE}) may be bound as a prefix: the listed fields, nothing after them; they are in
 * {@link #PREFIX_BOUND}. Everything else is bound whole, because we allocate it and pass it in.
 */
public final class VerbsLayouts
{
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT;
    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    private static final AddressLayout PTR = ValueLayout.ADDRESS;

    /** {@code union ibv_gid}: 16 raw bytes (subnet prefix, interface id, both big-endian). */
    public static final GroupLayout IBV_GID = MemoryLayout.unionLayout(
        MemoryLayout.sequenceLayout(16, U8).withName("raw"),
        MemoryLayout.structLayout(U64.withName("subnet_prefix"), U64.withName("interface_id")).withName("global"))
        .withName("union ibv_gid");

    /** {@code struct ibv_device} (library-allocated; bound up to {@code ibdev_path}). */
    public static final StructLayout IBV_DEVICE = struct("struct ibv_device",
        MemoryLayout.structLayout(PTR.withName("_dummy1"), PTR.withName("_dummy2")).withName("_ops"),
        U32.withName("node_type"),
        U32.withName("transport_type"),
        MemoryLayout.sequenceLayout(64, U8).withName("name"),
        MemoryLayout.sequenceLayout(64, U8).withName("dev_name"),
        MemoryLayout.sequenceLayout(256, U8).withName("dev_path"),
        MemoryLayout.sequenceLayout(256, U8).withName("ibdev_path"));

    /** Names of the function pointers of {@code struct ibv_context_ops}, in declaration order. */
    private static final String[] CONTEXT_OPS = {
        "_compat_query_device", "_compat_query_port", "_compat_alloc_pd", "_compat_dealloc_pd", "_compat_reg_mr",
        "_compat_rereg_mr", "_compat_dereg_mr", "alloc_mw", "bind_mw", "dealloc_mw", "_compat_create_cq", "poll_cq",
        "req_notify_cq", "_compat_cq_event", "_compat_resize_cq", "_compat_destroy_cq", "_compat_create_srq",
        "_compat_modify_srq", "_compat_query_srq", "_compat_destroy_srq", "post_srq_recv", "_compat_create_qp",
        "_compat_query_qp", "_compat_modify_qp", "_compat_destroy_qp", "post_send", "post_recv",
        "_compat_create_ah", "_compat_destroy_ah", "_compat_attach_mcast", "_compat_detach_mcast",
        "_compat_async_event",
    };

    /**
     * {@code struct ibv_context_ops}: the dispatch table through which the static inline {@code ibv_post_send},
     * {@code ibv_post_recv}, {@code ibv_post_srq_recv} and {@code ibv_poll_cq} of {@code verbs.h} call the provider.
     */
    public static final StructLayout IBV_CONTEXT_OPS = struct("struct ibv_context_ops", functionPointers());

    /** {@code struct ibv_context} (library-allocated; bound up to {@code num_comp_vectors}). */
    public static final StructLayout IBV_CONTEXT = struct("struct ibv_context",
        PTR.withName("device"),
        IBV_CONTEXT_OPS.withName("ops"),
        U32.withName("cmd_fd"),
        U32.withName("async_fd"),
        U32.withName("num_comp_vectors"));

    /** {@code struct ibv_device_attr}, filled by {@code ibv_query_device}. */
    public static final StructLayout IBV_DEVICE_ATTR = struct("struct ibv_device_attr", deviceAttrMembers());

    /**
     * {@code struct ibv_port_attr}, filled by the exported {@code ibv_query_port} symbol. That symbol takes the
     * older {@code _compat_ibv_port_attr}, a prefix of this struct; the caller zeroes the whole struct first, as the
     * inline wrapper in {@code verbs.h} does.
     */
    public static final StructLayout IBV_PORT_ATTR = struct("struct ibv_port_attr",
        U32.withName("state"),
        U32.withName("max_mtu"),
        U32.withName("active_mtu"),
        U32.withName("gid_tbl_len"),
        U32.withName("port_cap_flags"),
        U32.withName("max_msg_sz"),
        U32.withName("bad_pkey_cntr"),
        U32.withName("qkey_viol_cntr"),
        U16.withName("pkey_tbl_len"),
        U16.withName("lid"),
        U16.withName("sm_lid"),
        U8.withName("lmc"),
        U8.withName("max_vl_num"),
        U8.withName("sm_sl"),
        U8.withName("subnet_timeout"),
        U8.withName("init_type_reply"),
        U8.withName("active_width"),
        U8.withName("active_speed"),
        U8.withName("phys_state"),
        U8.withName("link_layer"),
        U8.withName("flags"),
        U16.withName("port_cap_flags2"));

    /** {@code struct ibv_pd} (library-allocated). */
    public static final StructLayout IBV_PD = struct("struct ibv_pd",
        PTR.withName("context"),
        U32.withName("handle"));

    /** {@code struct ibv_mr} (library-allocated): the keys a registration hands out. */
    public static final StructLayout IBV_MR = struct("struct ibv_mr",
        PTR.withName("context"),
        PTR.withName("pd"),
        PTR.withName("addr"),
        U64.withName("length"),
        U32.withName("handle"),
        U32.withName("lkey"),
        U32.withName("rkey"));

    /** {@code struct ibv_cq} (library-allocated; bound up to {@code cqe}, before its pthread mutex). */
    public static final StructLayout IBV_CQ = struct("struct ibv_cq",
        PTR.withName("context"),
        PTR.withName("channel"),
        PTR.withName("cq_context"),
        U32.withName("handle"),
        U32.withName("cqe"));

    /** {@code struct ibv_srq} (library-allocated; bound up to {@code handle}). */
    public static final StructLayout IBV_SRQ = struct("struct ibv_srq",
        PTR.withName("context"),
        PTR.withName("srq_context"),
        PTR.withName("pd"),
        U32.withName("handle"));

    /** {@code struct ibv_qp} (library-allocated; bound up to {@code qp_type}, before its pthread mutex). */
    public static final StructLayout IBV_QP = struct("struct ibv_qp",
        PTR.withName("context"),
        PTR.withName("qp_context"),
        PTR.withName("pd"),
        PTR.withName("send_cq"),
        PTR.withName("recv_cq"),
        PTR.withName("srq"),
        U32.withName("handle"),
        U32.withName("qp_num"),
        U32.withName("state"),
        U32.withName("qp_type"));

    /** {@code struct ibv_srq_attr}. */
    public static final StructLayout IBV_SRQ_ATTR = struct("struct ibv_srq_attr",
        U32.withName("max_wr"),
        U32.withName("max_sge"),
        U32.withName("srq_limit"));

    /** {@code struct ibv_srq_init_attr}, passed to {@code ibv_create_srq}. */
    public static final StructLayout IBV_SRQ_INIT_ATTR = struct("struct ibv_srq_init_attr",
        PTR.withName("srq_context"),
        IBV_SRQ_ATTR.withName("attr"));

    /** {@code struct ibv_qp_cap}. */
    public static final StructLayout IBV_QP_CAP = struct("struct ibv_qp_cap",
        U32.withName("max_send_wr"),
        U32.withName("max_recv_wr"),
        U32.withName("max_send_sge"),
        U32.withName("max_recv_sge"),
        U32.withName("max_inline_data"));

    /** {@code struct ibv_qp_init_attr}, passed to {@code ibv_create_qp}. */
    public static final StructLayout IBV_QP_INIT_ATTR = struct("struct ibv_qp_init_attr",
        PTR.withName("qp_context"),
        PTR.withName("send_cq"),
        PTR.withName("recv_cq"),
        PTR.withName("srq"),
        IBV_QP_CAP.withName("cap"),
        U32.withName("qp_type"),
        U32.withName("sq_sig_all"));

    /** {@code struct ibv_global_route} (the GRH, needed on RoCE where addressing is by GID). */
    public static final StructLayout IBV_GLOBAL_ROUTE = struct("struct ibv_global_route",
        IBV_GID.withName("dgid"),
        U32.withName("flow_label"),
        U8.withName("sgid_index"),
        U8.withName("hop_limit"),
        U8.withName("traffic_class"));

    /** {@code struct ibv_ah_attr}. */
    public static final StructLayout IBV_AH_ATTR = struct("struct ibv_ah_attr",
        IBV_GLOBAL_ROUTE.withName("grh"),
        U16.withName("dlid"),
        U8.withName("sl"),
        U8.withName("src_path_bits"),
        U8.withName("static_rate"),
        U8.withName("is_global"),
        U8.withName("port_num"));

    /** {@code struct ibv_qp_attr}, passed to {@code ibv_modify_qp} for INIT, RTR and RTS. */
    public static final StructLayout IBV_QP_ATTR = struct("struct ibv_qp_attr",
        U32.withName("qp_state"),
        U32.withName("cur_qp_state"),
        U32.withName("path_mtu"),
        U32.withName("path_mig_state"),
        U32.withName("qkey"),
        U32.withName("rq_psn"),
        U32.withName("sq_psn"),
        U32.withName("dest_qp_num"),
        U32.withName("qp_access_flags"),
        IBV_QP_CAP.withName("cap"),
        IBV_AH_ATTR.withName("ah_attr"),
        IBV_AH_ATTR.withName("alt_ah_attr"),
        U16.withName("pkey_index"),
        U16.withName("alt_pkey_index"),
        U8.withName("en_sqd_async_notify"),
        U8.withName("sq_draining"),
        U8.withName("max_rd_atomic"),
        U8.withName("max_dest_rd_atomic"),
        U8.withName("min_rnr_timer"),
        U8.withName("port_num"),
        U8.withName("timeout"),
        U8.withName("retry_cnt"),
        U8.withName("rnr_retry"),
        U8.withName("alt_port_num"),
        U8.withName("alt_timeout"),
        U32.withName("rate_limit"));

    /** {@code struct ibv_sge}: one scatter/gather element. */
    public static final StructLayout IBV_SGE = struct("struct ibv_sge",
        U64.withName("addr"),
        U32.withName("length"),
        U32.withName("lkey"));

    /**
     * {@code struct ibv_send_wr}. The {@code wr} union is bound as its largest member ({@code atomic}) with
     * {@code rdma} overlaid; the trailing anonymous union ({@code bind_mw} / {@code tso}) is bound as
     * {@code bind_mw}, whose size it has.
     */
    public static final StructLayout IBV_SEND_WR = struct("struct ibv_send_wr",
        U64.withName("wr_id"),
        PTR.withName("next"),
        PTR.withName("sg_list"),
        U32.withName("num_sge"),
        U32.withName("opcode"),
        U32.withName("send_flags"),
        U32.withName("imm_data"),
        MemoryLayout.unionLayout(
            struct("rdma", U64.withName("remote_addr"), U32.withName("rkey")).withName("rdma"),
            struct("atomic", U64.withName("remote_addr"), U64.withName("compare_add"), U64.withName("swap"),
                U32.withName("rkey")).withName("atomic"),
            struct("ud", PTR.withName("ah"), U32.withName("remote_qpn"), U32.withName("remote_qkey"))
                .withName("ud")).withName("wr"),
        MemoryLayout.unionLayout(struct("xrc", U32.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
        struct("bind_mw", PTR.withName("mw"), U32.withName("rkey"),
            struct("struct ibv_mw_bind_info", PTR.withName("mr"), U64.withName("addr"), U64.withName("length"),
                U32.withName("mw_access_flags")).withName("bind_info")).withName("bind_mw"));

    /** {@code struct ibv_recv_wr}. */
    public static final StructLayout IBV_RECV_WR = struct("struct ibv_recv_wr",
        U64.withName("wr_id"),
        PTR.withName("next"),
        PTR.withName("sg_list"),
        U32.withName("num_sge"));

    /** {@code struct ibv_wc}: one work completion, filled by {@code poll_cq}. */
    public static final StructLayout IBV_WC = struct("struct ibv_wc",
        U64.withName("wr_id"),
        U32.withName("status"),
        U32.withName("opcode"),
        U32.withName("vendor_err"),
        U32.withName("byte_len"),
        U32.withName("imm_data"),
        U32.withName("qp_num"),
        U32.withName("src_qp"),
        U32.withName("wc_flags"),
        U16.withName("pkey_index"),
        U16.withName("slid"),
        U8.withName("sl"),
        U8.withName("dlid_path_bits"));

    /** Every top-level layout, for the conformance test and for anyone who wants to list what is bound. */
    public static final List<GroupLayout> ALL = List.of(
        IBV_GID, IBV_DEVICE, IBV_CONTEXT_OPS, IBV_CONTEXT, IBV_DEVICE_ATTR, IBV_PORT_ATTR, IBV_PD, IBV_MR, IBV_CQ,
        IBV_SRQ, IBV_QP, IBV_SRQ_ATTR, IBV_SRQ_INIT_ATTR, IBV_QP_CAP, IBV_QP_INIT_ATTR, IBV_GLOBAL_ROUTE, IBV_AH_ATTR,
        IBV_QP_ATTR, IBV_SGE, IBV_SEND_WR, IBV_RECV_WR, IBV_WC);

    /** The library-allocated structs bound only as a prefix (their C size may exceed the Java size). */
    public static final List<GroupLayout> PREFIX_BOUND = List.of(
        IBV_DEVICE, IBV_CONTEXT, IBV_PD, IBV_MR, IBV_CQ, IBV_SRQ, IBV_QP);

    private VerbsLayouts()
    {
    }

    /** Byte offset of a (possibly nested, dot-separated) field, e.g. {@code offset(IBV_SEND_WR, "wr.rdma.rkey")}. */
    public static long offset(final GroupLayout layout, final String dottedPath)
    {
        final String[] names = dottedPath.split("\\.");
        final PathElement[] path = new PathElement[names.length];
        for (int i = 0; i < names.length; i++)
        {
            path[i] = PathElement.groupElement(names[i]);
        }
        return layout.byteOffset(path);
    }

    /**
     * A C struct: each member at its natural alignment, the whole padded to the largest member alignment, exactly
     * as the System V ABI lays it out. The result's name is {@code name}.
     */
    static StructLayout struct(final String name, final MemoryLayout... members)
    {
        final List<MemoryLayout> laid = new ArrayList<>();
        long offset = 0;
        long maxAlign = 1;
        for (final MemoryLayout member : members)
        {
            final long align = member.byteAlignment();
            maxAlign = Math.max(maxAlign, align);
            final long aligned = (offset + align - 1) & -align;
            if (aligned > offset)
            {
                laid.add(MemoryLayout.paddingLayout(aligned - offset));
            }
            laid.add(member);
            offset = aligned + member.byteSize();
        }
        final long size = (offset + maxAlign - 1) & -maxAlign;
        if (size > offset)
        {
            laid.add(MemoryLayout.paddingLayout(size - offset));
        }
        return MemoryLayout.structLayout(laid.toArray(MemoryLayout[]::new)).withName(name);
    }

    private static MemoryLayout[] functionPointers()
    {
        final MemoryLayout[] members = new MemoryLayout[CONTEXT_OPS.length];
        for (int i = 0; i < CONTEXT_OPS.length; i++)
        {
            members[i] = PTR.withName(CONTEXT_OPS[i]);
        }
        return members;
    }

    private static MemoryLayout[] deviceAttrMembers()
    {
        final List<MemoryLayout> members = new ArrayList<>();
        members.add(MemoryLayout.sequenceLayout(64, U8).withName("fw_ver"));
        for (final String name : new String[] {"node_guid", "sys_image_guid", "max_mr_size", "page_size_cap"})
        {
            members.add(U64.withName(name));
        }
        for (final String name : new String[] {
            "vendor_id", "vendor_part_id", "hw_ver", "max_qp", "max_qp_wr", "device_cap_flags", "max_sge",
            "max_sge_rd", "max_cq", "max_cqe", "max_mr", "max_pd", "max_qp_rd_atom", "max_ee_rd_atom",
            "max_res_rd_atom", "max_qp_init_rd_atom", "max_ee_init_rd_atom", "atomic_cap", "max_ee", "max_rdd",
            "max_mw", "max_raw_ipv6_qp", "max_raw_ethy_qp", "max_mcast_grp", "max_mcast_qp_attach",
            "max_total_mcast_qp_attach", "max_ah", "max_fmr", "max_map_per_fmr", "max_srq", "max_srq_wr",
            "max_srq_sge"})
        {
            members.add(U32.withName(name));
        }
        members.add(U16.withName("max_pkeys"));
        members.add(U8.withName("local_ca_ack_delay"));
        members.add(U8.withName("phys_port_cnt"));
        return members.toArray(MemoryLayout[]::new);
    }
}
