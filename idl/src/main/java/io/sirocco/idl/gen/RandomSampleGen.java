package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.List;
import java.util.ArrayList;

/**
 * Generates the {@code randomSample} methods of a struct or union codec (only when
 * {@link GeneratorOptions#randomSamples()} asks, for property tests): random values of every member type, within
 * bounds, with optional members sometimes absent and recursion cut off by depth.
 */
final class RandomSampleGen
{
    private static final String CDR = "io.sirocco.dds.type.cdr.";

    private final Naming naming;
    private final ValueExprs values;

    RandomSampleGen(final Naming naming, final ValueExprs values)
    {
        this.naming = naming;
        this.values = values;
    }

    /**
     * The two {@code randomSample} methods of a struct or union class, up to the new sample {@code v}: the body of
     * the second one is left open for the caller to fill.
     */
    private static void randomSampleOpening(final Src s, final String cls)
    {
        s.line("");
        s.line("public static " + cls + " randomSample(final java.util.random.RandomGenerator g)");
        s.open();
        s.line("return randomSample(g, 0);");
        s.close();
        s.line("");
        s.line("@SuppressWarnings(\"unchecked\")");
        s.line("public static " + cls + " randomSample(final java.util.random.RandomGenerator g, final int depth)");
        s.open();
        s.line("final " + cls + " v = new " + cls + "();");
    }

    void randomStruct(final Src s, final Decls.Struct st, final String cls, final List<Decls.Member> all)
    {
        randomSampleOpening(s, cls);
        for (final Decls.Member m : all)
        {
            final String f = "v." + Naming.member(m.name);
            if (m.optional)
            {
                s.line("if (g.nextBoolean())");
                s.open();
                random(s, m.type, f, m);
                s.close();
                s.line("else");
                s.open();
                s.line(f + " = null;");
                s.close();
            }
            else
            {
                random(s, m.type, f, m);
            }
        }
        s.line("return v;");
        s.close();
    }

    void randomUnion(final Src s, final Decls.Union u, final String cls)
    {
        randomSampleOpening(s, cls);
        final int choices = u.cases.size() + (u.defaultDiscriminator != null ? 1 : 0);
        s.line("switch (depth > 3 ? 0 : g.nextInt(" + choices + "))");
        s.open();
        int i = 0;
        for (final Decls.UnionCase c : u.cases)
        {
            s.line("case " + i++ + ":");
            s.open();
            if (c.isDefault)
            {
                s.line("v._d = " + values.discLiteral(u, u.defaultDiscriminator) + ";");
            }
            else
            {
                s.line("switch (g.nextInt(" + c.labelValues.size() + "))");
                s.open();
                for (int k = 0; k < c.labelValues.size(); k++)
                {
                    s.line((k == c.labelValues.size() - 1 ? "default" : "case " + k) + ":");
                    s.line("    v._d = " + values.discLiteral(u, c.labelValues.get(k)) + ";");
                    s.line("    break;");
                }
                s.close();
            }
            random(s, c.member.type, "v." + ValueExprs.unionField(c), null);
            s.line("break;");
            s.close();
        }
        s.line("default:");
        s.open();
        if (u.defaultDiscriminator != null)
        {
            s.line("v._d = " + values.discLiteral(u, u.defaultDiscriminator) + ";");
            for (final Decls.UnionCase c : u.cases)
            {
                if (c.isDefault)
                {
                    random(s, c.member.type, "v." + ValueExprs.unionField(c), null);
                }
            }
        }
        s.line("break;");
        s.close();
        s.close();
        s.line("return v;");
        s.close();
    }

    private void random(final Src s, final TypeRef type, final String target, final Decls.Member m)
    {
        final TypeRef t = Types.unalias(type);
        switch (t)
        {
            case TypeRef.Prim p -> randomPrim(s, p, target, m);
            case TypeRef.Str str -> s.line(target + " = " + CDR + "RandomValues." + (str.wide ? "wstring" : "string")
                + "(g, " + str.bound + "L);");
            case TypeRef.Seq seq -> randomSequence(s, seq, target);
            case TypeRef.Arr a -> randomArray(s, t, target);
            case TypeRef.Named n -> randomNamed(s, n, target);
        }
    }

    private static void randomPrim(final Src s, final TypeRef.Prim p, final String target, final Decls.Member m)
    {
        String expr = switch (p.kind())
        {
            case BOOLEAN -> "g.nextBoolean()";
            case CHAR -> "(char) g.nextInt(256)";
            case WCHAR -> "(char) g.nextInt(0xd800)";
            case OCTET, INT8, UINT8 -> "(byte) g.nextInt()";
            case INT16, UINT16 -> "(short) g.nextInt()";
            case INT32, UINT32 -> "g.nextInt()";
            case INT64, UINT64 -> "g.nextLong()";
            case FLOAT32 -> "(g.nextFloat() - 0.5f) * 1.0e6f";
            case FLOAT64 -> "(g.nextDouble() - 0.5) * 1.0e12";
        };
        if (m != null && m.rangeMin != null)
        {
            expr = Naming.primLiteral(m.rangeMin, p.kind());
        }
        s.line(target + " = " + expr + ";");
    }

    private void randomSequence(final Src s, final TypeRef.Seq seq, final String target)
    {
        final TypeRef element = Types.unalias(seq.element);
        final String n = s.fresh("n");
        s.open();
        s.line("final int " + n + " = " + CDR + "RandomValues.length(g, " + seq.bound + "L, depth);");
        final String i = s.fresh("i");
        if (Naming.isJavaPrimitive(element))
        {
            final String a = s.fresh("a");
            s.line("final " + naming.javaType(seq) + " " + a + " = new " + naming.javaType(element) + "[" + n
                + "];");
            s.line("for (int " + i + " = 0; " + i + " < " + n + "; " + i + "++)");
            s.open();
            random(s, element, a + "[" + i + "]", null);
            s.close();
            s.line(target + " = " + a + ";");
        }
        else
        {
            final String l = s.fresh("l");
            final String e = s.fresh("e");
            s.line("final java.util.List<" + naming.boxed(element) + "> " + l
                + " = new java.util.ArrayList<>();");
            s.line("for (int " + i + " = 0; " + i + " < " + n + "; " + i + "++)");
            s.open();
            s.line(naming.boxed(element) + " " + e + ";");
            random(s, element, e, null);
            s.line(l + ".add(" + e + ");");
            s.close();
            s.line(target + " = " + l + ";");
        }
        s.close();
    }

    private void randomArray(final Src s, final TypeRef t, final String target)
    {
        final int[] dims = Types.dims(t);
        final TypeRef element = Types.arrayElement(t);
        s.open();
        final String arr = s.fresh("a");
        s.line("final " + naming.javaType(t) + " " + arr + " = " + ArrayExprs.newArrayFull(
            naming.javaType(element), dims) + ";");
        final StringBuilder index = new StringBuilder();
        for (final int d : dims)
        {
            final String i = s.fresh("i");
            s.line("for (int " + i + " = 0; " + i + " < " + d + "; " + i + "++)");
            s.open();
            index.append('[').append(i).append(']');
        }
        random(s, element, arr + index, null);
        for (int k = 0; k < dims.length; k++)
        {
            s.close();
        }
        s.line(target + " = " + arr + ";");
        s.close();
    }

    private void randomNamed(final Src s, final TypeRef.Named n, final String target)
    {
        switch (n.target)
        {
            case Decls.Enum e ->
            {
                final String all = naming.fqn(e) + ".values()";
                s.line(target + " = " + all + "[g.nextInt(" + all + ".length)];");
            }
            case Decls.Bitmask b ->
            {
                if (b.bitBound > 32)
                {
                    s.line(target + " = g.nextLong()" + (b.bitBound == 64 ? "" : " & 0x" + Long.toHexString(
                        (1L << b.bitBound) - 1) + "L") + ";");
                }
                else
                {
                    s.line(target + " = g.nextInt()" + (b.bitBound == 32 ? "" : " & 0x" + Long.toHexString(
                        (1L << b.bitBound) - 1)) + ";");
                }
            }
            case Decls.Bitset b -> s.line(target + " = " + naming.fqn(b) + ".unpack(g.nextLong(), null);");
            case Decls.Struct st -> s.line(target + " = " + naming.fqn(st, "TypeSupport")
                + ".randomSample(g, depth + 1);");
            case Decls.Union u -> s.line(target + " = " + naming.fqn(u, "TypeSupport")
                + ".randomSample(g, depth + 1);");
            default -> throw new IllegalStateException();
        }
    }
}
