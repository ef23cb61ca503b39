package io.sirocco.tests.dds.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;

/**
 * A codec that writes a {@link RawBytes} sample's bytes as they are: registered under another type's name, it plays
 * a peer that sends samples of that type which may not decode (random bytes, cut samples, lengths past the end).
 * Keyless, so the writer never decodes what it sends.
 */
public final class RawBytesTypeSupport implements TypeCodec<RawBytes>
{
    public static final RawBytesTypeSupport INSTANCE = new RawBytesTypeSupport();

    @Override public String typeName() { return "RawBytes"; }
    @Override public Class<RawBytes> type() { return RawBytes.class; }
    @Override public RawBytes newSample() { return new RawBytes(); }
    @Override public boolean isKeyed() { return false; }
    @Override public boolean isFixedSize() { return false; }
    @Override public long maxSerializedSize() { return -1; }

    @Override
    public RawBytes copy(final RawBytes sample)
    {
        final RawBytes copy = new RawBytes();
        copy.bytes = sample.bytes.clone();
        return copy;
    }

    @Override
    public long serializedSize(final RawBytes sample, final DataRepresentation representation)
    {
        return sample.bytes.length;
    }

    @Override
    public long serialize(final RawBytes sample, final MemorySegment destination, final long offset,
        final DataRepresentation representation)
    {
        MemorySegment.copy(sample.bytes, 0, destination, ValueLayout.JAVA_BYTE, offset, sample.bytes.length);
        return sample.bytes.length;
    }

    @Override
    public RawBytes deserialize(final MemorySegment source, final long offset, final long length, final RawBytes reuse)
    {
        final RawBytes sample = reuse != null ? reuse : new RawBytes();
        sample.bytes = source.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
        return sample;
    }

    @Override
    public void copyKey(final RawBytes sample, final RawBytes keyHolder)
    {
        // keyless
    }

    @Override
    public void keyHash(final RawBytes sample, final byte[] out16)
    {
        java.util.Arrays.fill(out16, (byte)0);
    }
}
