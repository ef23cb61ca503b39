package io.sirocco.multicast.contact;

import io.sirocco.transport.Exporter;
import io.sirocco.transport.Importer;
import io.sirocco.transport.Message;

import java.nio.charset.StandardCharsets;

/**
 * One registry operation or hello between two members' {@link NetRegistry} endpoints: an ordered messaging-transport
 * message (type {@link #TYPE}, subtype {@link #SUBTYPE}). Payload:
 *
 * <pre>
 *   byte kind, byte flags (RELAY | IN_VIEW | MAY_FORM | WANT_REPLY), long senderMemberId,
 *   string groupName, string senderContact (host:port), string body
 * </pre>
 *
 * Bodies: HELLO none; ANNOUNCE a {@code Member.encode()} line; WITHDRAW the member id; PUBLISH the key, a newline,
 * then {@code View.encode()}. Text keeps the registry format identical to the shared-file registry's.
 */
final class RegistryMessage extends Message
{
    static final int TYPE = 41;
    static final int SUBTYPE = 1;

    static final byte HELLO = 1;
    static final byte ANNOUNCE = 2;
    static final byte WITHDRAW = 3;
    static final byte PUBLISH = 4;

    static final int RELAY = 1;
    static final int IN_VIEW = 2;
    static final int MAY_FORM = 4;
    static final int WANT_REPLY = 8;

    byte kind;
    int flags;
    long senderMemberId;
    String groupName = "";
    String senderContact = "";
    String body = "";
    private byte[] groupBytes;
    private byte[] contactBytes;
    private byte[] bodyBytes;

    RegistryMessage()
    {
        super(TYPE, SUBTYPE, true);
    }

    static RegistryMessage of(final byte kind, final int flags, final long sender, final String group,
        final String contact, final String body)
    {
        final RegistryMessage m = new RegistryMessage();
        m.kind = kind;
        m.flags = flags;
        m.senderMemberId = sender;
        m.groupName = group;
        m.senderContact = contact;
        m.body = body;
        m.groupBytes = group.getBytes(StandardCharsets.UTF_8);
        m.contactBytes = contact.getBytes(StandardCharsets.UTF_8);
        m.bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        return m;
    }

    boolean has(final int flag)
    {
        return (flags & flag) != 0;
    }

    @Override
    public int payloadSize()
    {
        return 2 + 8 + Exporter.byteArraySize(groupBytes) + Exporter.byteArraySize(contactBytes)
            + Exporter.byteArraySize(bodyBytes);
    }

    @Override
    public void exportPayload(final Exporter exporter)
    {
        exporter.writeByte(kind);
        exporter.writeByte((byte)flags);
        exporter.writeLong(senderMemberId);
        exporter.writeByteArray(groupBytes);
        exporter.writeByteArray(contactBytes);
        exporter.writeByteArray(bodyBytes);
    }

    @Override
    public void importPayload(final Importer importer)
    {
        kind = importer.readByte();
        flags = importer.readByte() & 0xFF;
        senderMemberId = importer.readLong();
        groupName = importer.readString();
        senderContact = importer.readString();
        body = importer.readString();
    }
}
