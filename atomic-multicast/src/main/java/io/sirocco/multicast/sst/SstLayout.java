package io.sirocco.multicast.sst;

/**
 * Where everything lives in a row; every row of a view has the same layout, a deterministic function of the view.
 * All counters are aligned {@code long}s holding <em>counts</em> (0 = nothing yet), so a zero-filled table is the
 * initial state.
 *
 * <pre>
 * control block (one per row)
 *   HEARTBEAT      bumped every heartbeat period by the owner (failure detector)
 *   VIEW_ID        the view this row belongs to
 *   SUSPECTED      bit mask of ranks this member suspects (OR-accumulated, never cleared within a view)
 *   PROPOSAL_NO    leader: number of its latest proposal; follower: 0
 *   PROPOSAL_MASK  ranks the proposal removes (followers copy the leader's)
 *   JOINER_COUNT, JOINERS[8]   member ids the proposal adds (followers copy)
 *   ACK_NO         the proposal number this member acknowledged
 *   COMMIT_NO      leader: the proposal number every live member acknowledged
 *   WEDGED         1 once this member stopped sending in this view (pushed after its last slots)
 *   DRAINED        1 once it received everything the wedged members pushed (pushed after its counters)
 * per subgroup g (present in every row; only the subgroup's members use it)
 *   COMMITTED      number of messages (incl. nulls) this member published as a sender: the guard of its slots
 *   RECEIVED[S]    per sender k: number of k's messages received contiguously
 *   SEQ            number of global sequence numbers received in order = min_k(RECEIVED[k] * S + k)
 *   DELIVERED      number of global sequence numbers delivered (ORDERED), frees senders' slots
 *   PERSISTED      number persisted by the persistence hook (if any)
 *   TRIM[S], TRIM_READY   ragged trim: per sender, how many of its messages the ending view delivers
 *   slots          window * slotWidth
 *   bulk           window * maxMessage (only when maxMessage > slot size)
 * </pre>
 */
public final class SstLayout
{
    public static final int MAX_JOINERS = 8;
    public static final long HEARTBEAT = 0;
    public static final long VIEW_ID = 8;
    public static final long SUSPECTED = 16;
    public static final long PROPOSAL_NO = 24;
    public static final long PROPOSAL_MASK = 32;
    public static final long JOINER_COUNT = 40;
    public static final long JOINERS = 48;
    public static final long ACK_NO = JOINERS + 8L * MAX_JOINERS;
    public static final long COMMIT_NO = ACK_NO + 8;
    public static final long WEDGED = COMMIT_NO + 8;
    public static final long DRAINED = WEDGED + 8;
    public static final long CONTROL_LENGTH = SlotDescriptor.align(DRAINED + 8, 64);

    private final long[] committed;
    private final long[] received;
    private final long[] delivered;
    private final long[] trim;
    private final long[] slots;
    private final long[] bulk;
    private final long[] slotWidth;
    private final long rowLengthBytes;

    /**
     * @param senders         per subgroup, number of senders S.
     * @param windows         per subgroup, window size.
     * @param slotSizes       per subgroup, slot payload size.
     * @param maxMessageBytes per subgroup, largest message.
     */
    public SstLayout(final int[] senders, final int[] windows, final int[] slotSizes, final int[] maxMessageBytes)
    {
        final int g = senders.length;
        committed = new long[g];
        received = new long[g];
        delivered = new long[g];
        trim = new long[g];
        slots = new long[g];
        bulk = new long[g];
        slotWidth = new long[g];
        long at = CONTROL_LENGTH;
        for (int i = 0; i < g; i++)
        {
            final int s = senders[i];
            committed[i] = at;
            at += 64;
            received[i] = at;
            at += 8L * (s + 1);
            delivered[i] = at;
            at += 16;
            trim[i] = at;
            at += 8L * (s + 1);
            at = SlotDescriptor.align(at, 64);
            slots[i] = at;
            slotWidth[i] = SlotDescriptor.slotWidth(slotSizes[i]);
            at += s == 0 ? 0 : windows[i] * slotWidth[i];
            bulk[i] = at;
            if (s > 0 && maxMessageBytes[i] > slotSizes[i])
            {
                at += windows[i] * SlotDescriptor.align(maxMessageBytes[i], 64);
            }
            at = SlotDescriptor.align(at, 64);
        }
        rowLengthBytes = SlotDescriptor.align(at, 4096);
    }

    public long rowLengthBytes()
    {
        return rowLengthBytes;
    }

    public long committed(final int g)
    {
        return committed[g];
    }

    public long received(final int g, final int sender)
    {
        return received[g] + 8L * sender;
    }

    /** Offset of SEQ, which follows RECEIVED[S] so one counter push carries both. */
    public long seq(final int g, final int senders)
    {
        return received[g] + 8L * senders;
    }

    public long delivered(final int g)
    {
        return delivered[g];
    }

    public long persisted(final int g)
    {
        return delivered[g] + 8;
    }

    public long trim(final int g, final int sender)
    {
        return trim[g] + 8L * sender;
    }

    /** Offset of TRIM_READY, which follows TRIM[S]. */
    public long trimReady(final int g, final int senders)
    {
        return trim[g] + 8L * senders;
    }

    public long slots(final int g)
    {
        return slots[g];
    }

    public long slotWidth(final int g)
    {
        return slotWidth[g];
    }

    public long bulk(final int g)
    {
        return bulk[g];
    }
}
