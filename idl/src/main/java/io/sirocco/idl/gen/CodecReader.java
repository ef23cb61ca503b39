package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

/**
 * Emits the statements that deserialize one value of an IDL type with the {@code dds-api} CDR reader ({@code r}),
 * reusing the arrays, lists and nested objects the target already holds. Collections of non-primitive elements carry
 * a DHEADER under XCDR2 (XTypes 1.3 §7.4.3.5.3); structs and unions delegate to their TypeSupport's static methods.
 * {@link CodecWriter} emits the matching serialization.
 */
final class CodecReader
{
    private final Naming naming;

    CodecReader(final Naming naming)
    {
        this.naming = naming;
    }

    /** Reads a value into the lvalue {@code target}, reusing what it holds where the type allows. */
    void read(final Src s, final TypeRef type, final String target)
    {
        final TypeRef t = Types.unalias(type);
        switch (t)
        {
            case TypeRef.Prim p -> s.line(target + " = r." + CdrCalls.primReader(p.kind()) + "();");
            case TypeRef.Str str -> s.line(target + " = r." + (str.wide ? "readWString(" : "readString(") + str.bound
                + "L);");
            case TypeRef.Seq seq -> readSequence(s, seq, target);
            case TypeRef.Arr a -> readArray(s, t, target);
            case TypeRef.Named n -> readNamed(s, n, target);
        }
    }

    private void readNamed(final Src s, final TypeRef.Named n, final String target)
    {
        switch (n.target)
        {
            case Decls.Enum e ->
            {
                final int size = SizeCalc.enumSize(e.bitBound);
                final String mask = size == 4 ? "" : size == 1 ? " & 0xff" : " & 0xffff";
                s.line(target + " = " + naming.fqn(e) + ".from_int(r." + CdrCalls.sizedReader(size) + "()" + mask
                    + ");");
            }
            case Decls.Bitmask b ->
            {
                final int size = SizeCalc.bitsSize(b.bitBound);
                final boolean isLong = b.bitBound > 32;
                final String read = "r." + CdrCalls.sizedReader(size) + "()";
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
                final String read = "r." + CdrCalls.sizedReader(size) + "()";
                final String widened = size == 8 ? read : size == 4 ? "(" + read + " & 0xffffffffL)"
                    : "(" + read + " & " + (size == 1 ? "0xff" : "0xffff") + "L)";
                s.line(target + " = " + naming.fqn(b) + ".unpack(" + widened + ", " + target + ");");
            }
            case Decls.Struct st ->
                s.line(target + " = " + naming.fqn(st, "TypeSupport") + ".read(r, " + target + ");");
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
            s.line("r.read" + CdrCalls.bulkSuffix(p.kind()) + "(" + a + ", " + n + ");");
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
        s.line(current + " = " + ArrayExprs.newArray(jt, dims[0], dims.length - 1) + ";");
        s.close();
        s.line(target + " = " + current + ";");
        int opened = 0;
        for (int level = 0; level < dims.length; level++)
        {
            final boolean last = level == dims.length - 1;
            if (last && element instanceof TypeRef.Prim p)
            {
                s.line("r.read" + CdrCalls.bulkSuffix(p.kind()) + "(" + current + ", " + dims[level] + ");");
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
        s.line(nextVar + " = " + ArrayExprs.newArray(jt, dims[level + 1], dims.length - level - 2) + ";");
        s.line(current + "[" + i + "] = " + nextVar + ";");
        s.close();
        return nextVar;
    }
}
