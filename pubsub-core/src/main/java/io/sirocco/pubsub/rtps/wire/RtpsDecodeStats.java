package io.sirocco.pubsub.rtps.wire;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of one {@link RtpsMessageReader}: datagrams accepted, submessages dispatched, submessages skipped
 * (unknown standard ids, vendor-specific ids, ones this codec does not interpret) and one counter per
 * {@link MalformedReason}.
 *
 * <p>Single writer: the receive loop's thread, with a plain read and a release store (no CAS); any thread may read
 * with {@code get} (volatile), which pairs with that release.
 */
public final class RtpsDecodeStats
{
    private static final int ACCEPTED = 0;
    private static final int SUBMESSAGES = 1;
    private static final int UNKNOWN = 2;
    private static final int VENDOR_SPECIFIC = 3;
    private static final int FIRST_REASON = 4;

    private final AtomicLongArray counters = new AtomicLongArray(FIRST_REASON + MalformedReason.values().length);

    void accepted()
    {
        bump(ACCEPTED);
    }

    void submessage()
    {
        bump(SUBMESSAGES);
    }

    void unknown(final int id)
    {
        bump(id >= SubmessageKind.FIRST_VENDOR_SPECIFIC ? VENDOR_SPECIFIC : UNKNOWN);
    }

    void countMalformed(final MalformedReason reason)
    {
        bump(FIRST_REASON + reason.ordinal());
    }

    private void bump(final int index)
    {
        // single writer: no read-modify-write race; release publishes the new count to readers' get
        counters.setRelease(index, counters.getPlain(index) + 1);
    }

    /** Datagrams whose every submessage was valid (skipped unknown ones included). */
    public long acceptedDatagrams()
    {
        return counters.get(ACCEPTED);
    }

    /** Valid submessages read: handed to the handler, interpreted (INFO_*) or skipped (PAD, unknown ids). */
    public long submessages()
    {
        return counters.get(SUBMESSAGES);
    }

    /** Submessages with a standard id this codec does not know (skipped, as the spec says). */
    public long unknownSubmessages()
    {
        return counters.get(UNKNOWN);
    }

    public long vendorSpecificSubmessages()
    {
        return counters.get(VENDOR_SPECIFIC);
    }

    public long malformed(final MalformedReason reason)
    {
        return counters.get(FIRST_REASON + reason.ordinal());
    }

    /** Datagrams dropped, wholly or from a bad submessage on, for any reason. */
    public long malformedTotal()
    {
        long sum = 0;
        for (int i = FIRST_REASON; i < counters.length(); i++)
        {
            sum += counters.get(i);
        }
        return sum;
    }
}
