package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates the Java class of a bitset: one field per named bitfield, and pack/unpack to and from the 64-bit
 * holder it is serialized as, the first field at bit 0.
 */
final class BitsetClassGen
{
    private final Naming naming;

    BitsetClassGen(final Naming naming)
    {
        this.naming = naming;
    }

    String bitsetClass(final Decls.Bitset b)
    {
        final Src src = new Src();
        final String cls = naming.className(b);
        src.line(GeneratedHeader.header(b).strip());
        src.line("public class " + cls);
        src.open();
        final List<Decls.Bitfield> named = new ArrayList<>();
        for (final Decls.Bitfield f : b.fields)
        {
            if (f.name != null)
            {
                named.add(f);
                src.line("public " + bitfieldType(f) + " " + Naming.member(f.name) + ";");
            }
        }
        src.line("");
        src.line("public " + cls + "()");
        src.open();
        src.close();
        src.line("");
        src.line("public " + cls + "(final " + cls + " other)");
        src.open();
        for (final Decls.Bitfield f : named)
        {
            src.line("this." + Naming.member(f.name) + " = other." + Naming.member(f.name) + ";");
        }
        src.close();
        packAndUnpack(src, b, cls, named);
        objectMethods(src, cls, named);
        src.close();
        return src.toString();
    }

    /** pack and unpack between the fields and the 64-bit holder. */
    private static void packAndUnpack(final Src src, final Decls.Bitset b, final String cls,
        final List<Decls.Bitfield> named)
    {
        src.line("");
        src.line("/** Packs the fields, the first at bit 0, into the serialized holder (" + b.totalBits + " bits). */");
        src.line("public static long pack(final " + cls + " v)");
        src.open();
        src.line("long bits = 0L;");
        for (final Decls.Bitfield f : named)
        {
            final String mask = f.width == 64 ? "-1L" : "0x" + Long.toHexString((1L << f.width) - 1) + "L";
            final String t = bitfieldType(f);
            final String value = t.equals("boolean") ? "(v." + Naming.member(f.name) + " ? 1L : 0L)"
                : t.equals("long") ? "v." + Naming.member(f.name) : "(long) v." + Naming.member(f.name);
            src.line("bits |= (" + value + " & " + mask + ") << " + f.shift + ";");
        }
        src.line("return bits;");
        src.close();
        src.line("");
        src.line("/** Unpacks into {@code reuse}, or a new instance when it is null. */");
        src.line("public static " + cls + " unpack(final long bits, final " + cls + " reuse)");
        src.open();
        src.line("final " + cls + " v = reuse != null ? reuse : new " + cls + "();");
        for (final Decls.Bitfield f : named)
        {
            final String mask = f.width == 64 ? "-1L" : "0x" + Long.toHexString((1L << f.width) - 1) + "L";
            final String raw = "((bits >>> " + f.shift + ") & " + mask + ")";
            final String t = bitfieldType(f);
            final String value = switch (t)
            {
                case "boolean" -> raw + " != 0";
                case "long" -> raw;
                default -> "(" + t + ") " + raw;
            };
            src.line("v." + Naming.member(f.name) + " = " + value + ";");
        }
        src.line("return v;");
        src.close();
    }

    /** equals and hashCode over the packed bits, toString over the named fields. */
    private static void objectMethods(final Src src, final String cls, final List<Decls.Bitfield> named)
    {
        src.line("");
        src.line("@Override");
        src.line("public boolean equals(final java.lang.Object o)");
        src.open();
        src.line("return o instanceof " + cls + " that && o.getClass() == getClass() && pack(this) == pack(that);");
        src.close();
        src.line("");
        src.line("@Override");
        src.line("public int hashCode()");
        src.open();
        src.line("return java.lang.Long.hashCode(pack(this));");
        src.close();
        src.line("");
        src.line("@Override");
        src.line("public java.lang.String toString()");
        src.open();
        final StringBuilder sb = new StringBuilder("\"" + cls + "{\"");
        boolean first = true;
        for (final Decls.Bitfield f : named)
        {
            sb.append(" + \"").append(first ? "" : ", ").append(f.name).append("=\" + this.")
                .append(Naming.member(f.name));
            first = false;
        }
        src.line("return " + sb + " + \"}\";");
        src.close();
    }

    static String bitfieldType(final Decls.Bitfield f)
    {
        final PrimKind k = f.type == null ? null : Types.prim(f.type);
        if (k == PrimKind.BOOLEAN)
        {
            return "boolean";
        }
        if (k == PrimKind.CHAR)
        {
            return "char";
        }
        if (k != null)
        {
            return k.javaType();
        }
        return f.width > 32 ? "long" : "int";
    }
}
