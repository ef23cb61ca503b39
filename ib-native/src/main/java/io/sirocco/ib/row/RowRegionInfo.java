package io.sirocco.ib.row;

import java.nio.ByteBuffer;

import io.sirocco.ib.verbs.QpEndpoint;

/**
 * What a member tells one peer when a view's RDMA table is set up: the queue pair it created for that peer, and
 * where its registered table lives (address, rkey, length), so the peer can write its row into our copy.
 */
public record RowRegionInfo(QpEndpoint endpoint, long tableAddress, int rkey, long tableLengthBytes)
{
    /** Encoded length in bytes. */
    public static final int ENCODED_LENGTH = QpEndpoint.ENCODED_LENGTH + 8 + 4 + 8;

    /** Big-endian encoding. */
    public byte[] encode()
    {
        final ByteBuffer out = ByteBuffer.allocate(ENCODED_LENGTH);
        endpoint.encode(out);
        out.putLong(tableAddress).putInt(rkey).putLong(tableLengthBytes);
        return out.array();
    }

    /** Decodes, rejecting a short or oversized blob. */
    public static RowRegionInfo decode(final byte[] blob)
    {
        if (blob.length != ENCODED_LENGTH)
        {
            throw new IllegalArgumentException("RDMA row region info has " + ENCODED_LENGTH + " bytes, got "
                + blob.length);
        }
        final ByteBuffer in = ByteBuffer.wrap(blob);
        final QpEndpoint endpoint = QpEndpoint.decode(in);
        return new RowRegionInfo(endpoint, in.getLong(), in.getInt(), in.getLong());
    }
}
