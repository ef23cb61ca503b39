package io.sirocco.ib.row;

import io.sirocco.ib.verbs.QpEndpoint;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class RowRegionInfoTest
{
    @Property(tries = 200)
    void roundTrips(
        @ForAll final short lid, @ForAll final int qpn, @ForAll final int psn, @ForAll @Size(16) final byte[] gid,
        @ForAll final long address, @ForAll final int rkey, @ForAll final long length)
    {
        final RowRegionInfo info = new RowRegionInfo(
            new QpEndpoint(Short.toUnsignedInt(lid), qpn, psn, gid), address, rkey, length);

        final RowRegionInfo decoded = RowRegionInfo.decode(info.encode());

        assertThat(decoded).isEqualTo(info);
        assertThat(decoded.endpoint().psn()).isEqualTo(psn & 0xFFFFFF);
    }

    @Property(tries = 50)
    void rejectsBlobsOfTheWrongLength(@ForAll @Size(max = 100) final byte[] blob)
    {
        if (blob.length != RowRegionInfo.ENCODED_LENGTH)
        {
            assertThatThrownBy(() -> RowRegionInfo.decode(blob)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
