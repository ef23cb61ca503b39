package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Emits {@code <Type>Flat}, a reusable flyweight over a fixed-size struct laid out exactly as its XCDR2
 * little-endian serialization, encapsulation header included: a sample built in place through the view is a valid
 * serialized sample for {@code TypeCodec.deserialize}, and a received one can be read in place. Nested structs are
 * flattened into {@code outer_inner} accessors; arrays get index accessors. See docs/idl.md.
 */
final class FlatGen
{
    private final Naming naming;
    private final List<Leaf> leaves = new ArrayList<>();
    private final List<long[]> dheaders = new ArrayList<>();
    private long pos;

    private record Leaf(String name, String samplePath, TypeRef type, long offset, int[] dims, int elementSize)
    {
    }

    FlatGen(final Naming naming)
    {
        this.naming = naming;
    }

    /** Final or appendable, no optional members, only primitives, enums, bitmasks, their arrays, nested such structs. */
    static boolean eligible(final Decls.Struct s)
    {
        if (s.extensibility == Decls.Extensibility.MUTABLE)
        {
            return false;
        }
        for (final Decls.Member m : s.allMembers())
        {
            if (m.optional)
            {
                return false;
            }
            final TypeRef t = Types.unalias(m.type);
            final TypeRef leaf = t instanceof TypeRef.Arr ? Types.arrayElement(t) : t;
            if (t instanceof TypeRef.Arr && !Types.isPrimitiveLike(leaf))
            {
                return false;
            }
            if (Types.isPrimitiveLike(leaf))
            {
                continue;
            }
            if (!(leaf instanceof TypeRef.Named n && n.target instanceof Decls.Struct nested && eligible(nested)))
            {
                return false;
            }
        }
        return true;
    }

    private static int size(final TypeRef t)
    {
        return SizeCalc.primSize(t);
    }

    private void align(final int size)
    {
        final int a = Math.min(size, 4);
        if (a > 1)
        {
            pos = (pos + a - 1) & -a;
        }
    }

    private void layout(final Decls.Struct s, final String prefix, final String path)
    {
        long dh = -1;
        if (s.extensibility == Decls.Extensibility.APPENDABLE)
        {
            align(4);
            dh = pos;
            pos += 4;
        }
        for (final Decls.Member m : s.allMembers())
        {
            final TypeRef t = Types.unalias(m.type);
            final String name = flatName(prefix + Naming.member(m.name), t);
            final String p = path + "." + Naming.member(m.name);
            if (t instanceof TypeRef.Arr)
            {
                final TypeRef element = Types.arrayElement(t);
                final int es = size(element);
                final int[] dims = Types.dims(t);
                long count = 1;
                for (final int d : dims)
                {
                    count *= d;
                }
                align(es);
                leaves.add(new Leaf(name, p, element, pos, dims, es));
                pos += es * count;
            }
            else if (Types.isPrimitiveLike(t))
            {
                final int es = size(t);
                align(es);
                leaves.add(new Leaf(name, p, t, pos, new int[0], es));
                pos += es;
            }
            else
            {
                layout((Decls.Struct)((TypeRef.Named)t).target, name + "_", p);
            }
        }
        if (dh >= 0)
        {
            dheaders.add(new long[] {dh, pos - dh - 4});
        }
    }

    private static final java.util.Set<String> RESERVED = java.util.Set.of("wrap", "segment", "offset",
        "writeHeader", "copyFrom", "copyTo", "equals", "hashCode", "toString", "getClass", "notify", "notifyAll",
        "wait", "SIZE", "HEADER_SIZE", "BODY_SIZE", "REPRESENTATION", "BYTE", "SHORT", "CHAR", "INT", "LONG", "FLOAT",
        "DOUBLE");

    /** Accessor names avoid the view's own methods and constants (a member called {@code offset} is common). */
    private static String flatName(final String name, final TypeRef t)
    {
        return RESERVED.contains(name) && (Types.isPrimitiveLike(t) || t instanceof TypeRef.Arr) ? name + "_" : name;
    }

    private String javaType(final TypeRef t)
    {
        return naming.javaType(t);
    }

    private static String layoutName(final int size, final TypeRef t)
    {
        final PrimKind k = Types.prim(t);
        if (k == PrimKind.FLOAT32)
        {
            return "FLOAT";
        }
        if (k == PrimKind.FLOAT64)
        {
            return "DOUBLE";
        }
        if (k == PrimKind.WCHAR)
        {
            return "CHAR";
        }
        return switch (size)
        {
            case 1 -> "BYTE";
            case 2 -> "SHORT";
            case 4 -> "INT";
            default -> "LONG";
        };
    }

    private String getExpr(final Leaf leaf, final String at)
    {
        final TypeRef t = leaf.type();
        final String raw = "segment.get(" + layoutName(leaf.elementSize(), t) + ", " + at + ")";
        final PrimKind k = Types.prim(t);
        if (k != null)
        {
            return switch (k)
            {
                case BOOLEAN -> raw + " != 0";
                case CHAR -> "(char) (" + raw + " & 0xff)";
                default -> raw;
            };
        }
        final TypeRef.Named n = (TypeRef.Named)t;
        if (n.target instanceof Decls.Enum e)
        {
            final String widened = leaf.elementSize() == 4 ? raw : raw + " & " + (leaf.elementSize() == 1 ? "0xff"
                : "0xffff");
            return naming.fqn(e) + ".from_int(" + widened + ")";
        }
        final Decls.Bitmask b = (Decls.Bitmask)n.target;
        final boolean isLong = b.bitBound > 32;
        return switch (leaf.elementSize())
        {
            case 1 -> raw + " & 0xff" + (isLong ? "L" : "");
            case 2 -> raw + " & 0xffff" + (isLong ? "L" : "");
            case 4 -> isLong ? raw + " & 0xffffffffL" : raw;
            default -> raw;
        };
    }

    private String setExpr(final Leaf leaf, final String at, final String v)
    {
        final TypeRef t = leaf.type();
        final String layout = layoutName(leaf.elementSize(), t);
        final PrimKind k = Types.prim(t);
        final String value;
        if (k != null)
        {
            value = switch (k)
            {
                case BOOLEAN -> "(byte) (" + v + " ? 1 : 0)";
                case CHAR -> "(byte) " + v;
                default -> v;
            };
        }
        else if (((TypeRef.Named)t).target instanceof Decls.Enum)
        {
            value = CdrCalls.sizedCast(leaf.elementSize()).replace("(int) ", "") + v + ".value()";
        }
        else
        {
            final boolean isLong = ((Decls.Bitmask)((TypeRef.Named)t).target).bitBound > 32;
            value = switch (leaf.elementSize())
            {
                case 1 -> "(byte) " + v;
                case 2 -> "(short) " + v;
                case 4 -> isLong ? "(int) " + v : v;
                default -> v;
            };
        }
        return "segment.set(" + layout + ", " + at + ", " + value + ")";
    }

    String generate(final Decls.Struct s)
    {
        layout(s, "", "sample");
        final String cls = naming.className(s) + "Flat";
        final Src src = new Src();
        src.line(GeneratedHeader.header(s).strip());
        src.line("public final class " + cls);
        src.open();
        constants(src, s.extensibility == Decls.Extensibility.APPENDABLE);
        segmentAccess(src, cls);
        writeHeader(src, cls);
        for (final Leaf leaf : leaves)
        {
            final String base = "offset + HEADER_SIZE + " + leaf.offset() + "L";
            src.line("");
            if (leaf.dims().length == 0)
            {
                scalarAccessors(src, cls, leaf, base);
            }
            else
            {
                arrayAccessors(src, cls, leaf, base);
            }
        }
        copyMethods(src, cls, s);
        src.close();
        return src.toString();
    }

    /** Sizes, the representation and the little-endian value layouts. */
    private void constants(final Src src, final boolean appendable)
    {
        src.line("/** Bytes of the encapsulation header in front of the body. */");
        src.line("public static final int HEADER_SIZE = 4;");
        src.line("/** Bytes of the body (XCDR2 little-endian). */");
        src.line("public static final int BODY_SIZE = " + pos + ";");
        src.line("/** Bytes of one whole serialized sample: header and body. */");
        src.line("public static final int SIZE = HEADER_SIZE + BODY_SIZE;");
        src.line("/** The representation the view's bytes are in. */");
        src.line("public static final io.sirocco.dds.type.DataRepresentation REPRESENTATION = io.sirocco.dds.type"
            + ".DataRepresentation." + (appendable ? "D_XCDR2_LE" : "XCDR2_LE") + ";");
        src.line("");
        for (final String l : List.of("BYTE", "SHORT", "CHAR", "INT", "LONG", "FLOAT", "DOUBLE"))
        {
            final String type = switch (l)
            {
                case "BYTE" -> "OfByte";
                case "SHORT" -> "OfShort";
                case "CHAR" -> "OfChar";
                case "INT" -> "OfInt";
                case "LONG" -> "OfLong";
                case "FLOAT" -> "OfFloat";
                default -> "OfDouble";
            };
            final String base = l.equals("BYTE") ? "java.lang.foreign.ValueLayout.JAVA_BYTE"
                : "java.lang.foreign.ValueLayout.JAVA_" + l + "_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)";
            src.line("private static final java.lang.foreign.ValueLayout." + type + " " + l + " = " + base + ";");
        }
        src.line("");
    }

    /** The segment and offset fields, {@code wrap} and their accessors. */
    private static void segmentAccess(final Src src, final String cls)
    {
        src.line("private java.lang.foreign.MemorySegment segment;");
        src.line("private long offset;");
        src.line("");
        src.line("/** Points this view at a sample of {@link #SIZE} bytes starting at {@code offset} (its header). */");
        src.line("public " + cls + " wrap(final java.lang.foreign.MemorySegment segment, final long offset)");
        src.open();
        src.line("java.util.Objects.checkFromIndexSize(offset, SIZE, segment.byteSize());");
        src.line("this.segment = segment;");
        src.line("this.offset = offset;");
        src.line("return this;");
        src.close();
        src.line("");
        src.line("public java.lang.foreign.MemorySegment segment()");
        src.open();
        src.line("return segment;");
        src.close();
        src.line("");
        src.line("public long offset()");
        src.open();
        src.line("return offset;");
        src.close();
        src.line("");
    }

    private void writeHeader(final Src src, final String cls)
    {
        src.line("/** Writes the encapsulation header" + (dheaders.isEmpty() ? "" : " and the DHEADERs")
            + ": call once before filling a fresh slot. */");
        src.line("public " + cls + " writeHeader()");
        src.open();
        src.line("io.sirocco.dds.type.cdr.Encapsulation.write(segment, offset, REPRESENTATION);");
        for (final long[] dh : dheaders)
        {
            src.line("segment.set(INT, offset + HEADER_SIZE + " + dh[0] + "L, " + dh[1] + ");");
        }
        src.line("return this;");
        src.close();
    }

    private void scalarAccessors(final Src src, final String cls, final Leaf leaf, final String base)
    {
        final String jt = javaType(leaf.type());
        src.line("public " + jt + " " + leaf.name() + "()");
        src.open();
        src.line("return " + getExpr(leaf, base) + ";");
        src.close();
        src.line("");
        src.line("public " + cls + " " + leaf.name() + "(final " + jt + " value)");
        src.open();
        src.line(setExpr(leaf, base, "value") + ";");
        src.line("return this;");
        src.close();
    }

    /** Indexed accessors of an array leaf: one {@code int} index per dimension, row-major, bounds-checked. */
    private void arrayAccessors(final Src src, final String cls, final Leaf leaf, final String base)
    {
        final String jt = javaType(leaf.type());
        final int[] dims = leaf.dims();
        final StringBuilder params = new StringBuilder();
        final List<String> checks = new ArrayList<>();
        for (int i = 0; i < dims.length; i++)
        {
            params.append(i == 0 ? "" : ", ").append("final int i").append(i);
        }
        String flat = "i0";
        checks.add("java.util.Objects.checkIndex(i0, " + dims[0] + ");");
        for (int i = 1; i < dims.length; i++)
        {
            flat = "(" + flat + ") * " + dims[i] + " + i" + i;
            checks.add("java.util.Objects.checkIndex(i" + i + ", " + dims[i] + ");");
        }
        final String at = base + " + (long) (" + flat + ") * " + leaf.elementSize();
        src.line("public static final int " + leaf.name() + "_LENGTH = " + dims[0] + ";");
        src.line("");
        src.line("public " + jt + " " + leaf.name() + "(" + params + ")");
        src.open();
        checks.forEach(src::line);
        src.line("return " + getExpr(leaf, at) + ";");
        src.close();
        src.line("");
        src.line("public " + cls + " " + leaf.name() + "(" + params + ", final " + jt + " value)");
        src.open();
        checks.forEach(src::line);
        src.line(setExpr(leaf, at, "value") + ";");
        src.line("return this;");
        src.close();
    }

    private void copyMethods(final Src src, final String cls, final Decls.Struct s)
    {
        src.line("");
        src.line("/** Writes the header and every member of {@code sample} into the view. */");
        src.line("public " + cls + " copyFrom(final " + naming.fqn(s) + " sample)");
        src.open();
        src.line("writeHeader();");
        for (final Leaf leaf : leaves)
        {
            loops(src, leaf, true);
        }
        src.line("return this;");
        src.close();
        src.line("");
        src.line("/** Reads every member of the view into {@code sample} and returns it. */");
        src.line("public " + naming.fqn(s) + " copyTo(final " + naming.fqn(s) + " sample)");
        src.open();
        for (final Leaf leaf : leaves)
        {
            loops(src, leaf, false);
        }
        src.line("return sample;");
        src.close();
    }

    private static void loops(final Src src, final Leaf leaf, final boolean toView)
    {
        final int[] dims = leaf.dims();
        final StringBuilder args = new StringBuilder();
        final StringBuilder index = new StringBuilder();
        for (int i = 0; i < dims.length; i++)
        {
            final String v = src.fresh("i");
            src.line("for (int " + v + " = 0; " + v + " < " + dims[i] + "; " + v + "++)");
            src.open();
            args.append(args.isEmpty() ? "" : ", ").append(v);
            index.append('[').append(v).append(']');
        }
        final String samplePath = leaf.samplePath() + index;
        if (toView)
        {
            src.line(leaf.name() + "(" + args + (args.isEmpty() ? "" : ", ") + samplePath + ");");
        }
        else
        {
            src.line(samplePath + " = " + leaf.name() + "(" + args + ");");
        }
        for (int i = 0; i < dims.length; i++)
        {
            src.close();
        }
    }
}
