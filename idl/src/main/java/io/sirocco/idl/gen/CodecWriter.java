package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

/**
 * Emits the statements that serialize one value of an IDL type with the {@code dds-api} CDR writer ({@code w}).
 * Collections of non-primitive elements get a DHEADER under XCDR2 (XTypes 1.3 §7.4.3.5.3); structs and unions
 * delegate to their TypeSupport's static methods. {@link CodecReader} emits the matching deserialization.
 */
final class CodecWriter
{
    private final Naming naming;

    CodecWriter(final Naming naming)
    {
        this.naming = naming;
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
                    s.line("w." + CdrCalls.primWriter(p.kind()) + "(" + expr + ");");
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
                final String cast = size == 4 ? "" : CdrCalls.sizedCast(size);
                s.line("w." + CdrCalls.sizedWriter(size) + "(" + cast + value + ");");
            }
            case Decls.Bitmask b ->
            {
                final int size = SizeCalc.bitsSize(b.bitBound);
                final boolean isLong = b.bitBound > 32;
                final String cast = size == 8 ? (isLong ? "" : "(long) ") : size == 4 ? (isLong ? "(int) " : "")
                    : CdrCalls.sizedCast(size);
                s.line("w." + CdrCalls.sizedWriter(size) + "(" + cast + expr + ");");
            }
            case Decls.Bitset b ->
            {
                final int size = SizeCalc.bitsSize(b.totalBits);
                s.line("w." + CdrCalls.sizedWriter(size) + "(" + CdrCalls.sizedCast(size) + naming.fqn(b) + ".pack("
                    + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + ")));");
            }
            case Decls.Struct st -> s.line(naming.fqn(st, "TypeSupport") + (keyHolder ? ".writeKeyHolder(w, "
                : ".write(w, ") + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + "));");
            case Decls.Union u -> s.line(naming.fqn(u, "TypeSupport") + ".write(w, "
                + "io.sirocco.dds.type.cdr.CdrWriter.checkNotNull(" + expr + ", " + name + "));");
            default -> throw new IllegalStateException("cannot serialize " + n.name);
        }
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
            s.line("w.write" + CdrCalls.bulkSuffix(p.kind()) + "(" + v + ", " + v + ".length"
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
                s.line("w.write" + CdrCalls.bulkSuffix(p.kind()) + "(" + current + ", " + dims[level]
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
}
