package io.sirocco.transport;

/**
 * An application message: a Java object with a (type, subtype) identity and export/import/size methods.
 *
 * <p>Subclasses keep their fields and implement {@link #payloadSize()}, {@link #exportPayload(Exporter)} and
 * {@link #importPayload(Importer)}. The size must be known before export: it reserves the space in the outgoing
 * ring buffer with one CAS. A receiving node creates instances through the factory registered for the
 * (type, subtype) pair with {@link MessagingService#registerMessageType}.
 *
 * <p>Type 0 is reserved for the transport. A message flagged {@link #ordered()} is delivered to its handler in the
 * order the sending connection carried it (all ordered messages from one node are handled by one handler thread);
 * unordered messages may be handled in parallel.
 *
 * <p>Threading: a message object is owned by one thread at a time. Once passed to {@code send} it may be reused as
 * soon as {@code send} returns (it has been serialized by then). On receipt the handler owns it.
 */
public abstract class Message
{
    private final byte type;
    private final byte subtype;
    private final boolean ordered;
    private int sourceNodeId = NodeIds.INVALID;

    protected Message(final int type, final int subtype)
    {
        this(type, subtype, false);
    }

    protected Message(final int type, final int subtype, final boolean ordered)
    {
        this.type = MessageTypes.checkType(type);
        this.subtype = MessageTypes.checkSubtype(subtype);
        this.ordered = ordered;
    }

    /** The number of payload bytes {@link #exportPayload(Exporter)} writes. */
    public abstract int payloadSize();

    public abstract void exportPayload(Exporter exporter);

    public abstract void importPayload(Importer importer);

    public final int type()
    {
        return type & 0xFF;
    }

    public final int subtype()
    {
        return subtype & 0xFF;
    }

    public final boolean ordered()
    {
        return ordered;
    }

    /** The node that sent this message, on the receiving side; {@link NodeIds#INVALID} before receipt. */
    public final int sourceNodeId()
    {
        return sourceNodeId;
    }

    /** Set by the transport when it delivers the message. */
    public final void sourceNodeId(final int nodeId)
    {
        this.sourceNodeId = nodeId;
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "(type=" + type() + ", subtype=" + subtype() + ", from=" + sourceNodeId + ")";
    }
}
