package io.sirocco.tests.dds.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import io.sirocco.dds.type.DataRepresentation;
import io.sirocco.dds.type.TypeCodec;

/**
 * A hand-written XCDR2-LE codec for {@link Shape} ({@code @key string<128> color; long x, y, size}), shaped like
 * what the IDL compiler generates. The color is bounded to 128 characters so tests can check bound violations.
 */
public final class ShapeTypeSupport implements TypeCodec<Shape>
{
    public static final ShapeTypeSupport INSTANCE = new ShapeTypeSupport();
    public static final int COLOR_BOUND = 128;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    @Override
    public String typeName()
    {
        return "ShapeType";
    }

    @Override
    public Class<Shape> type()
    {
        return Shape.class;
    }

    @Override
    public Shape newSample()
    {
        return new Shape();
    }

    @Override
    public Shape copy(final Shape s)
    {
        return new Shape(s.color, s.x, s.y, s.size);
    }

    @Override
    public boolean isKeyed()
    {
        return true;
    }

    @Override
    public boolean isFixedSize()
    {
        return false;
    }

    @Override
    public long maxSerializedSize()
    {
        return 4 + 4 + COLOR_BOUND + 1 + 3 + 12;
    }

    private static int pad4(final int n)
    {
        return (n + 3) & ~3;
    }

    @Override
    public long serializedSize(final Shape s, final DataRepresentation representation)
    {
        check(s);
        return 4 + pad4(4 + s.color.getBytes(StandardCharsets.UTF_8).length + 1) + 12;
    }

    private static void check(final Shape s)
    {
        if (s.color == null)
        {
            throw new IllegalArgumentException("member 'color' is null");
        }
        if (s.color.length() > COLOR_BOUND)
        {
            throw new IllegalArgumentException("member 'color' exceeds its bound string<" + COLOR_BOUND + ">: " +
                s.color.length() + " characters");
        }
    }

    @Override
    public long serialize(final Shape s, final MemorySegment d, final long offset, final DataRepresentation r)
    {
        check(s);
        final byte[] color = s.color.getBytes(StandardCharsets.UTF_8);
        d.set(ValueLayout.JAVA_BYTE, offset, (byte)0);
        d.set(ValueLayout.JAVA_BYTE, offset + 1, (byte)0x07);
        d.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset + 2, (short)0);
        long p = offset + 4;
        d.set(INT, p, color.length + 1);
        MemorySegment.copy(color, 0, d, ValueLayout.JAVA_BYTE, p + 4, color.length);
        d.set(ValueLayout.JAVA_BYTE, p + 4 + color.length, (byte)0);
        p += pad4(4 + color.length + 1);
        d.set(INT, p, s.x);
        d.set(INT, p + 4, s.y);
        d.set(INT, p + 8, s.size);
        return p + 12 - offset;
    }

    @Override
    public Shape deserialize(final MemorySegment src, final long offset, final long length, final Shape reuse)
    {
        if (length < 20 || src.get(ValueLayout.JAVA_BYTE, offset + 1) != 0x07)
        {
            throw new IllegalArgumentException("not an XCDR2-LE Shape at offset " + offset);
        }
        final Shape s = reuse == null ? new Shape() : reuse;
        long p = offset + 4;
        final int n = src.get(INT, p);
        if (n < 1 || n > COLOR_BOUND + 1 || 4 + n > length)
        {
            throw new IllegalArgumentException("bad color length " + n + " at offset " + p);
        }
        final byte[] color = new byte[n - 1];
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, p + 4, color, 0, n - 1);
        s.color = new String(color, StandardCharsets.UTF_8);
        p += pad4(4 + n);
        s.x = src.get(INT, p);
        s.y = src.get(INT, p + 4);
        s.size = src.get(INT, p + 8);
        return s;
    }

    @Override
    public void copyKey(final Shape sample, final Shape keyHolder)
    {
        keyHolder.color = sample.color;
    }

    @Override
    public void keyHash(final Shape s, final byte[] out16)
    {
        try
        {
            final byte[] color = s.color.getBytes(StandardCharsets.UTF_8);
            final byte[] be = new byte[4 + color.length + 1];
            be[3] = (byte)(color.length + 1);
            be[2] = (byte)((color.length + 1) >> 8);
            System.arraycopy(color, 0, be, 4, color.length);
            final byte[] md5 = MessageDigest.getInstance("MD5").digest(be);
            System.arraycopy(md5, 0, out16, 0, 16);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
