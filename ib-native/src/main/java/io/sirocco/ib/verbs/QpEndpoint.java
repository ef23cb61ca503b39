package io.sirocco.ib.verbs;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What one side of an RC connection tells the other so it can move its QP to RTR: LID (InfiniBand), QP number,
 * starting packet sequence number and GID (needed on RoCE, where the LID is 0). Exchanged over the TCP control
 * connection as {@link #ENCODED_LENGTH} big-endian bytes.
 */
public record QpEndpoint(int lid, int qpNum, int psn, byte[] gid)
{
    /** {@code u16 lid, u32 qpn, u32 psn, u8[16] gid}. */
    public static final int ENCODED_LENGTH = 2 + 4 + 4 + 16;

    /** Checks the GID length and copies it. */
    public QpEndpoint
    {
        if (gid.length != 16)
        {
            throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
        }
        gid = gid.clone();
        psn &= 0xFFFFFF;
    }

    /** True when the GID is set, so the peer must address us with a GRH (always so on RoCE). */
    public boolean hasGid()
    {
        for (final byte b : gid)
        {
            if (0 != b)
            {
                return true;
            }
        }
        return false;
    }

    /** Writes the encoding at the buffer's position. */
    public void encode(final ByteBuffer out)
    {
        out.putShort((short)lid).putInt(qpNum).putInt(psn).put(gid);
    }

    /** Reads an encoding at the buffer's position. */
    public static QpEndpoint decode(final ByteBuffer in)
    {
        if (in.remaining() < ENCODED_LENGTH)
        {
            throw new IllegalArgumentException(
                "QP endpoint needs " + ENCODED_LENGTH + " bytes, " + in.remaining() + " left");
        }
        final int lid = Short.toUnsignedInt(in.getShort());
        final int qpNum = in.getInt();
        final int psn = in.getInt();
        final byte[] gid = new byte[16];
        in.get(gid);
        return new QpEndpoint(lid, qpNum, psn, gid);
    }

    @Override
    public byte[] gid()
    {
        return gid.clone();
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof QpEndpoint other && lid == other.lid && qpNum == other.qpNum && psn == other.psn
            && Arrays.equals(gid, other.gid);
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * (31 * lid + qpNum) + psn) + Arrays.hashCode(gid);
    }

    @Override
    public String toString()
    {
        return "QpEndpoint{lid=" + lid + ", qpn=" + qpNum + ", psn=" + psn + ", gid="
            + RdmaDevice.formatGid(gid) + '}';
    }
}
