package io.sirocco.pubsub.rtps.wire;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test handler: writes each submessage it gets as one line of text, so tests compare what was decoded. */
final class RecordingHandler implements SubmessageHandler
{
    final List<String> lines = new ArrayList<>();

    @Override
    public void onData(final ReceiveContext c, final DataView d)
    {
        final byte[] payload = new byte[d.payloadLength()];
        d.buffer().get(d.payloadOffset(), payload);
        final byte[] keyHash = new byte[16];
        lines.add(String.format("DATA r=%08x w=%08x sn=%d key=%s status=%d data=%b keyOnly=%b repr=%d payload=%s "
                + "dst=%016x%08x ts=%d", d.readerId(), d.writerId(), d.sequenceNumber(),
            d.inlineQos().keyHash(keyHash, 0) ? HexFormat.of().formatHex(keyHash) : "-", d.inlineQos().statusInfo(),
            d.hasData(), d.hasKey(), d.representation(), HexFormat.of().formatHex(payload), c.destPrefixHigh(),
            c.destPrefixLow(), c.timestamp()));
    }

    @Override
    public void onDataFrag(final ReceiveContext c, final DataFragView f)
    {
        final byte[] payload = new byte[f.fragmentBytes()];
        f.buffer().get(f.payloadOffset(), payload);
        lines.add(String.format("DATA_FRAG w=%08x sn=%d start=%d n=%d size=%d sample=%d total=%d payload=%s",
            f.writerId(), f.sequenceNumber(), f.fragmentStartingNum(), f.fragmentsInSubmessage(), f.fragmentSize(),
            f.sampleSize(), f.totalFragments(), HexFormat.of().formatHex(payload)));
    }

    @Override
    public void onHeartbeat(final ReceiveContext c, final HeartbeatView h)
    {
        lines.add(h.isFragment()
            ? String.format("HEARTBEAT_FRAG w=%08x sn=%d last=%d count=%d", h.writerId(), h.firstSN(),
                h.lastFragmentNum(), h.count())
            : String.format("HEARTBEAT r=%08x w=%08x %d..%d count=%d final=%b live=%b", h.readerId(), h.writerId(),
                h.firstSN(), h.lastSN(), h.count(), h.isFinal(), h.isLiveliness()));
    }

    @Override
    public void onAckNack(final ReceiveContext c, final AckNackView a)
    {
        final StringBuilder bits = new StringBuilder();
        for (int i = 0; i < a.set().numBits(); i++)
        {
            bits.append(a.set().bit(i) ? '1' : '0');
        }
        lines.add(String.format("%s r=%08x w=%08x sn=%d base=%d bits=%s count=%d final=%b",
            a.isFragment() ? "NACK_FRAG" : "ACKNACK", a.readerId(), a.writerId(), a.writerSN(), a.set().base(), bits,
            a.count(), a.isFinal()));
    }

    @Override
    public void onGap(final ReceiveContext c, final GapView g)
    {
        lines.add(String.format("GAP w=%08x start=%d base=%d bits=%d covers5=%b covers9=%b covers12=%b", g.writerId(),
            g.gapStart(), g.gapList().base(), g.gapList().numBits(), g.covers(5), g.covers(9), g.covers(12)));
    }
}
