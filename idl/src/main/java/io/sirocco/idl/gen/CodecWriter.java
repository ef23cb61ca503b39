package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

/**
 * Emits the statements that serialize and deserialize one value of an IDL type with the {@code dds-api} CDR
 * writer ({@code w}) and reader ({@code r}). Collections of non-primitive elements get a DHEADER under XCDR2
 * (XTypes 1.3 §7.4.3.5.3); structs and unions delegate to their TypeSupport's static methods.
 */
final class CodecWriter
{
    private final Naming naming;

    CodecWriter(final Naming naming)
    {
        this.naming = naming;
    }

    static String primWriter(final PrimKind k)
    {
        return switch (k)
        {
            case BOOLEAN -> "writeBoolean";
            case CHAR -> "writeChar8";
            case WCHAR -> "writeChar16";
            case OCTET, INT8, UINT8 -> "writeInt8";
            case INT16, UINT16 -> "writeInt16";
            case INT32, UINT32 -> "writeInt32";
            case INT64, UINT64 -> "writeInt64";
            case FLOAT32 -> "writeFloat32";
            case FLOAT64 -> "writeFloat64";
        };
    }

    static String primReader(final PrimKind k)
    {
        return primWriter(k).replace("write", "read");
    }

    static String sizedWriter(final int size)
    {
        return switch (size)
        {
            case 1 -> "writeInt8";
            case 2 -> "writeInt16";
            case 4 -> "writeInt32";
            default -> "writeInt64";
        };
    }

    static String sizedCast(final int size)
    {
        return switch (size)
        {
            case 1 -> "(byte) ";
            case 2 -> "(short) ";
            case 4 -> "(int) ";
            default -> "";
        };
    }

    /** Writes {@code expr}; {@code keyHolder} writes nested structs as their key holders. */
    void write(final Src s, final TypeRef type, final String expr, final String member, final boolean keyHolder)
    {
        final TypeRef t = Types.unalias(type);
        final String name = Naming.stringLiteral(member);
        switch (t)
        {
            case TypeRef.Prim p ->
            {
                if (p.kind() == PrimKind.CHAR)
                {
                    s.line("w.writeChar8(" + expr + ", " + name + ");");
                }
                else
                {
                    s.line("w." + primWriter(p.kind()) + "(" + expr + ");");
                }
            }
            case TypeRef.Str str -> s.line("w." + (str.wide ? "writeWString(" : "writeString(") + expr + ", "
                + str.bound + "L, " + name + ");");
            case TypeRef.Seq seq -> writeSequence(s, seq, expr, member, keyHolder);
            case TypeRef.Arr a -> writeArray(s, t, expr, member, keyHolder);
            case TypeRef.Named n -> writeNamed(s, n, expr, member, keyHolder);
        }
    }

    private void writeNamed(final Src s, final TypeRef.Named n, final String expr, final String member,
        final boolean keyHolder)
    {
        final String name = Naming.stringLiteral(member);
        switch (n.target)
        {
            case Decls.Enum e ->
            {
                final int size = SizeCalc.enumSize(e.bitBound);
                final String value = "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name
                    + ").value()";
                s.line("w." + sizedWriter(size) + "(" + (size == 4 ? "" : sizedCast(size)) + value + ");");
            }
            case Decls.Bitmask b ->
            {
                final int size = SizeCalc.bitsSize(b.bitBound);
                final boolean isLong = b.bitBound > 32;
                final String cast = size == 8 ? (isLong ? "" : "(long) ") : size == 4 ? (isLong ? "(int) " : "")
                    : sizedCast(size);
                s.line("w." + sizedWriter(size) + "(" + cast + expr + ");");
            }
            case Decls.Bitset b ->
            {
                final int size = SizeCalc.bitsSize(b.totalBits);
                s.line("w." + sizedWriter(size) + "(" + sizedCast(size) + naming.fqn(b) + ".pack("
                    + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + ")));");
            }
            case Decls.Struct st -> s.line(naming.fqn(st, "TypeSupport") + (keyHolder ? ".writeKeyHolder(w, "
                : ".write(w, ") + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + "));");
            case Decls.Union u -> s.line(naming.fqn(u, "TypeSupport") + ".write(w, "
                + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + "));");
            default -> throw new IllegalStateException("cannot serialize " + n.name);
        }
    }

    private static String bulkSuffix(final PrimKind k)
    {
        return switch (k)
        {
            case BOOLEAN -> "Booleans";
            case CHAR -> "Char8s";
            case WCHAR -> "Char16s";
            case OCTET, INT8, UINT8 -> "Int8s";
            case INT16, UINT16 -> "Int16s";
            case INT32, UINT32 -> "Int32s";
            case INT64, UINT64 -> "Int64s";
            case FLOAT32 -> "Float32s";
            case FLOAT64 -> "Float64s";
        };
    }

    private void writeSequence(final Src s, final TypeRef.Seq seq, final String expr, final String member,
        final boolean keyHolder)
    {
        final String name = Naming.stringLiteral(member);
        final TypeRef element = Types.unalias(seq.element);
        final String v = s.fresh("s");
        s.open();
        s.line("final " + naming.javaType(seq) + " " + v + " = io.sirocco.dds.type.cdr.CdrWriter.checkNotNull("
            + expr + ", " + name + ");");
        if (element instanceof TypeRef.Prim p)
        {
            s.line("w.writeSequenceLength(" + v + ".length, " + seq.bound + "L, " + name + ");");
            s.line("w.write" + bulkSuffix(p.kind()) + "(" + v + ", " + v + ".length"
                + (p.kind() == PrimKind.CHAR ? ", " + name : "") + ");");
        }
        else if (Naming.isJavaPrimitive(element))
        {
            s.line("w.writeSequenceLength(" + v + ".length, " + seq.bound + "L, " + name + ");");
            final String i = s.fresh("i");
            s.line("for (int " + i + " = 0; " + i + " < " + v + ".length; " + i + "++)");
            s.open();
            write(s, element, v + "[" + i + "]", member + "[]", keyHolder);
            s.close();
        }
        else
        {
            final String dh = s.fresh("dh");
            final boolean needsDh = !Types.isPrimitiveLike(element);
            if (needsDh)
            {
                s.line("final long " + dh + " = w.xcdrVersion() == 2 ? w.beginDHeader() : -1;");
            }
            s.line("w.writeSequenceLength(" + v + ".size(), " + seq.bound + "L, " + name + ");");
            final String e = s.fresh("e");
            s.line("for (final " + naming.boxed(element) + " " + e + " : " + v + ")");
            s.open();
            write(s, element, e, member + "[]", keyHolder);
            s.close();
            if (needsDh)
            {
                s.line("if (" + dh + " >= 0)");
                s.open();
                s.line("w.endDHeader(" + dh + ");");
                s.close();
            }
        }
        s.close();
    }

    private void writeArray(final Src s, final TypeRef t, final String expr, final String member,
        final boolean keyHolder)
    {
        final String name = Naming.stringLiteral(member);
        final int[] dims = Types.dims(t);
        final TypeRef element = Types.arrayElement(t);
        final boolean needsDh = !Types.isPrimitiveLike(element);
        s.open();
        final String dh = s.fresh("dh");
        if (needsDh)
        {
            s.line("final long " + dh + " = w.xcdrVersion() == 2 ? w.beginDHeader() : -1;");
        }
        String current = s.fresh("a");
        s.line("final " + naming.javaType(t) + " " + current + " = io.sirocco.dds.type.cdr.CdrWriter.checkNotNull("
            + expr + ", " + name + ");");
        int opened = 0;
        for (int level = 0; level < dims.length; level++)
        {
            s.line("io.sirocco.dds.type.cdr.CdrWriter.checkArrayLength(" + current + ".length, " + dims[level] + ", "
                + name + ");");
            final boolean last = level == dims.length - 1;
            if (last && element instanceof TypeRef.Prim p)
            {
                s.line("w.write" + bulkSuffix(p.kind()) + "(" + current + ", " + dims[level]
                    + (p.kind() == PrimKind.CHAR ? ", " + name : "") + ");");
                break;
            }
            final String i = s.fresh("i");
            s.line("for (int " + i + " = 0; " + i + " < " + dims[level] + "; " + i + "++)");
            s.open();
            opened++;
            if (last)
            {
                write(s, element, current + "[" + i + "]", member + "[]", keyHolder);
            }
            else
            {
                final String nextVar = s.fresh("a");
                s.line("final " + naming.javaType(element) + "[]".repeat(dims.length - level - 1) + " " + nextVar
                    + " = io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + current + "[" + i + "], " + name + ");");
                current = nextVar;
            }
        }
        for (int k = 0; k < opened; k++)
        {
            s.close();
        }
        if (needsDh)
        {
            s.line("if (" + dh + " >= 0)");
            s.open();
            s.line("w.endDHeader(" + dh + ");");
            s.close();
        }
        s.close();
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Reads a value into the lvalue {@code target}, reusing what it holds where the type allows. */
    void read(final Src s, final TypeRef type, final String target)
    {
        final TypeRef t = Types.unalias(type);
        switch (t)
        {
            case TypeRef.Prim p -> s.line(target + " = r." + primReader(p.kind()) + "();");
            case TypeRef.Str str -> s.line(target + " = r." + (str.wide ? "readWString(" : "readString(") + str.bound
                + "L);");
            case TypeRef.Seq seq -> readSequence(s, seq, target);
            case TypeRef.Arr a -> readArray(s, t, target);
            case TypeRef.Named n -> readNamed(s, n, target);
        }
    }

    private static String sizedReader(final int size)
    {
        return sizedWriter(size).replace("write", "read");
    }

    private void readNamed(final Src s, final TypeRef.Named n, final String target)
    {
        switch (n.target)
        {
            case Decls.Enum e ->
            {
                final int size = SizeCalc.enumSize(e.bitBound);
                final String mask = size == 4 ? "" : size == 1 ? " & 0xff" : " & 0xffff";
                s.line(target + " = " + naming.fqn(e) + ".from_int(r." + sizedReader(size) + "()" + mask + ");");
            }
            case Decls.Bitmask b ->
            {
                final int size = SizeCalc.bitsSize(b.bitBound);
                final boolean isLong = b.bitBound > 32;
                final String read = "r." + sizedReader(size) + "()";
                if (size == 8)
                {
                    s.line(target + " = " + (isLong ? "" : "(int) ") + read + ";");
                }
                else if (size == 4)
                {
                    s.line(target + " = " + (isLong ? read + " & 0xffffffffL" : read) + ";");
                }
                else
                {
                    s.line(target + " = " + read + " & " + (size == 1 ? "0xff" : "0xffff") + (isLong ? "L" : "")
                        + ";");
                }
            }
            case Decls.Bitset b ->
            {
                final int size = SizeCalc.bitsSize(b.totalBits);
                final String read = "r." + sizedReader(size) + "()";
                final String widened = size == 8 ? read : size == 4 ? "(" + read + " & 0xffffffffL)"
                    : "(" + read + " & " + (size == 1 ? "0xff" : "0xffff") + "L)";
                s.line(target + " = " + naming.fqn(b) + ".unpack(" + widened + ", " + target + ");");
            }
            case Decls.Struct st -> s.line(target + " = " + naming.fqn(st, "TypeSupport") + ".read(r, " + target + ");");
            case Decls.Union u -> s.line(target + " = " + naming.fqn(u, "TypeSupport") + ".read(r, " + target + ");");
            default -> throw new IllegalStateException("cannot deserialize " + n.name);
        }
    }

    /** A lower bound on an element's serialized size, to reject impossible sequence lengths before allocating. */
    static int minSize(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        if (t instanceof TypeRef.Str || t instanceof TypeRef.Seq)
        {
            return 4;
        }
        final int ps = SizeCalc.primSize(t);
        if (ps > 0)
        {
            return ps;
        }
        if (t instanceof TypeRef.Named n && n.target instanceof Decls.Union u)
        {
            return Math.max(1, SizeCalc.primSize(u.discriminator));
        }
        if (t instanceof TypeRef.Named n && n.target instanceof Decls.Struct st)
        {
            return st.extensibility == Decls.Extensibility.FINAL ? (st.allMembers().isEmpty() ? 0 : 1) : 4;
        }
        return 1;
    }

    private void readSequence(final Src s, final TypeRef.Seq seq, final String target)
    {
        final TypeRef element = Types.unalias(seq.element);
        s.open();
        if (Naming.isJavaPrimitive(element))
        {
            readArraySequence(s, seq, element, target);
        }
        else
        {
            readListSequence(s, seq, element, target);
        }
        s.close();
    }

    /** A sequence of Java primitives (or enums) read into a reused array. */
    private void readArraySequence(final Src s, final TypeRef.Seq seq, final TypeRef element, final String target)
    {
        final String n = s.fresh("n");
        final String a = s.fresh("a");
        s.line("final int " + n + " = r.readSequenceLength(" + seq.bound + "L, " + minSize(element) + ");");
        final String jt = naming.javaType(element);
        s.line(naming.javaType(seq) + " " + a + " = " + target + ";");
        s.line("if (" + a + " == null || " + a + ".length != " + n + ")");
        s.open();
        s.line(a + " = new " + jt + "[" + n + "];");
        s.close();
        if (element instanceof TypeRef.Prim p)
        {
            s.line("r.read" + bulkSuffix(p.kind()) + "(" + a + ", " + n + ");");
        }
        else
        {
            final String i = s.fresh("i");
            s.line("for (int " + i + " = 0; " + i + " < " + n + "; " + i + "++)");
            s.open();
            read(s, element, a + "[" + i + "]");
            s.close();
        }
        s.line(target + " = " + a + ";");
    }

    /** A sequence of objects read into a reused list, elements reused in place; a DHEADER in XCDR2. */
    private void readListSequence(final Src s, final TypeRef.Seq seq, final TypeRef element, final String target)
    {
        final boolean needsDh = !Types.isPrimitiveLike(element);
        final String end = s.fresh("end");
        if (needsDh)
        {
            s.line("final long " + end + " = r.xcdrVersion() == 2 ? r.readDHeader() : -1;");
        }
        final String n = s.fresh("n");
        final String l = s.fresh("l");
        final String boxed = naming.boxed(element);
        s.line("final int " + n + " = r.readSequenceLength(" + seq.bound + "L, " + minSize(element) + ");");
        s.line("java.util.List<" + boxed + "> " + l + " = " + target + ";");
        s.line("if (!(" + l + " instanceof java.util.ArrayList))");
        s.open();
        s.line(l + " = new java.util.ArrayList<>(" + n + ");");
        s.close();
        s.line("while (" + l + ".size() > " + n + ")");
        s.open();
        s.line(l + ".removeLast();");
        s.close();
        final String i = s.fresh("i");
        final String e = s.fresh("e");
        s.line("for (int " + i + " = 0; " + i + " < " + n + "; " + i + "++)");
        s.open();
        s.line(boxed + " " + e + " = " + i + " < " + l + ".size() ? " + l + ".get(" + i + ") : null;");
        read(s, element, e);
        s.line("if (" + i + " < " + l + ".size())");
        s.open();
        s.line(l + ".set(" + i + ", " + e + ");");
        s.close();
        s.line("else");
        s.open();
        s.line(l + ".add(" + e + ");");
        s.close();
        s.close();
        s.line(target + " = " + l + ";");
        if (needsDh)
        {
            s.line("if (" + end + " >= 0)");
            s.open();
            s.line("r.position(" + end + ");");
            s.close();
        }
    }

    /** An array creation expression; arrays of generic lists need an unchecked cast (methods suppress it). */
    static String newArray(final String elementType, final int length, final int extraDims)
    {
        final String rest = "[]".repeat(extraDims);
        if (elementType.contains("<"))
        {
            return "(" + elementType + "[]" + rest + ") new java.util.List<?>[" + length + "]" + rest;
        }
        if (elementType.endsWith("[]"))
        {
            final int at = elementType.indexOf('[');
            return "new " + elementType.substring(0, at) + "[" + length + "]" + rest + elementType.substring(at);
        }
        return "new " + elementType + "[" + length + "]" + rest;
    }

    /** A creation expression with every dimension given. */
    static String newArrayFull(final String elementType, final int[] dims)
    {
        final StringBuilder sizes = new StringBuilder();
        for (final int d : dims)
        {
            sizes.append('[').append(d).append(']');
        }
        if (elementType.contains("<"))
        {
            return "(" + elementType + "[]".repeat(dims.length) + ") new java.util.List<?>" + sizes;
        }
        if (elementType.endsWith("[]"))
        {
            final int at = elementType.indexOf('[');
            return "new " + elementType.substring(0, at) + sizes + elementType.substring(at);
        }
        return "new " + elementType + sizes;
    }

    private void readArray(final Src s, final TypeRef t, final String target)
    {
        final int[] dims = Types.dims(t);
        final TypeRef element = Types.arrayElement(t);
        final boolean needsDh = !Types.isPrimitiveLike(element);
        final String jt = naming.javaType(element);
        s.open();
        final String end = s.fresh("end");
        if (needsDh)
        {
            s.line("final long " + end + " = r.xcdrVersion() == 2 ? r.readDHeader() : -1;");
        }
        String current = s.fresh("a");
        s.line(naming.javaType(t) + " " + current + " = " + target + ";");
        s.line("if (" + current + " == null || " + current + ".length != " + dims[0] + ")");
        s.open();
        s.line(current + " = " + newArray(jt, dims[0], dims.length - 1) + ";");
        s.close();
        s.line(target + " = " + current + ";");
        int opened = 0;
        for (int level = 0; level < dims.length; level++)
        {
            final boolean last = level == dims.length - 1;
            if (last && element instanceof TypeRef.Prim p)
            {
                s.line("r.read" + bulkSuffix(p.kind()) + "(" + current + ", " + dims[level] + ");");
                break;
            }
            final String i = s.fresh("i");
            s.line("for (int " + i + " = 0; " + i + " < " + dims[level] + "; " + i + "++)");
            s.open();
            opened++;
            if (last)
            {
                read(s, element, current + "[" + i + "]");
            }
            else
            {
                current = innerArray(s, jt, dims, level, current, i);
            }
        }
        for (int k = 0; k < opened; k++)
        {
            s.close();
        }
        if (needsDh)
        {
            s.line("if (" + end + " >= 0)");
            s.open();
            s.line("r.position(" + end + ");");
            s.close();
        }
        s.close();
    }

    /** Reuses (or allocates) the next dimension's array {@code current[i]}; returns the variable naming it. */
    private String innerArray(final Src s, final String jt, final int[] dims, final int level, final String current,
        final String i)
    {
        final String nextVar = s.fresh("a");
        final String rest = "[]".repeat(dims.length - level - 2);
        s.line(jt + "[]" + rest + " " + nextVar + " = " + current + "[" + i + "];");
        s.line("if (" + nextVar + " == null || " + nextVar + ".length != " + dims[level + 1] + ")");
        s.open();
        s.line(nextVar + " = " + newArray(jt, dims[level + 1], dims.length - level - 2) + ";");
        s.line(current + "[" + i + "] = " + nextVar + ";");
        s.close();
        return nextVar;
    }
}
