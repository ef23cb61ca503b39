package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.List;

/**
 * Emits {@code <Type>TypeSupport}: the {@code TypeCodec} singleton plus the static {@code write}, {@code read} and
 * {@code writeKeyHolder} methods that nested types call. Struct bodies follow XTypes 1.3 §7.4.3: FINAL plain,
 * APPENDABLE with a DHEADER (XCDR2), MUTABLE with a DHEADER and an EMHEADER per member (XCDR2) or a parameter list
 * (XCDR1); optional members carry a presence flag (XCDR2) or a parameter header (XCDR1).
 */
final class TypeSupportGen
{
    private static final String CDR = "io.sirocco.dds.type.cdr.";

    private final Naming naming;
    private final CodecWriter codec;
    private final CodecReader reader;
    private final GeneratorOptions options;
    private final ValueExprs helper;

    TypeSupportGen(final Naming naming, final CodecWriter codec, final CodecReader reader,
        final GeneratorOptions options)
    {
        this.naming = naming;
        this.codec = codec;
        this.reader = reader;
        this.options = options;
        this.helper = new ValueExprs(new Naming(options));
    }

    private static String extConst(final Decls.Extensibility e)
    {
        return CDR + "Xcdr." + e.name();
    }

    private void common(final Src s, final Decl d, final String cls, final Decls.Extensibility ext, final boolean keyed,
        final boolean fixed)
    {
        final String ts = cls + "TypeSupport";
        final long c1 = SizeCalc.constantBodySize(d, 1);
        final long c2 = SizeCalc.constantBodySize(d, 2);
        final long m1 = SizeCalc.maxBodySize(d, 1);
        final long m2 = SizeCalc.maxBodySize(d, 2);
        final long max = m1 < 0 || m2 < 0 ? -1 : 4 + Math.max(m1, m2);
        s.line(GeneratedHeader.header(d).strip());
        final FramingGen framing = new FramingGen(options.foreign());
        s.line("public final class " + ts + " " + framing.supertype(cls));
        s.open();
        s.line("public static final " + ts + " INSTANCE = new " + ts + "();");
        s.line("public static final java.lang.String TYPE_NAME = " + Naming.stringLiteral(d.scopedName()) + ";");
        s.line("public static final int EXTENSIBILITY = " + extConst(ext) + ";");
        s.line("/** Body size (after the encapsulation header) when it is the same for every sample, else -1. */");
        s.line("public static final long CONSTANT_BODY_SIZE_XCDR1 = " + c1 + "L;");
        s.line("public static final long CONSTANT_BODY_SIZE_XCDR2 = " + c2 + "L;");
        s.line("public static final long MAX_SERIALIZED_SIZE = " + max + "L;");
        s.line("");
        s.line("private " + ts + "()");
        s.open();
        framing.constructorBody(s);
        s.close();
        accessors(s, cls, keyed, fixed);
        framing.serialization(s, cls);
    }

    /** The codec's descriptive methods: type name and class, new sample, copy, keyed, fixed size, max size. */
    private static void accessors(final Src s, final String cls, final boolean keyed, final boolean fixed)
    {
        s.line("");
        s.line("@Override");
        s.line("public java.lang.String typeName()");
        s.open();
        s.line("return TYPE_NAME;");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public java.lang.Class<" + cls + "> type()");
        s.open();
        s.line("return " + cls + ".class;");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public " + cls + " newSample()");
        s.open();
        s.line("return new " + cls + "();");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public " + cls + " copy(final " + cls + " sample)");
        s.open();
        s.line("return new " + cls + "(sample);");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public boolean isKeyed()");
        s.open();
        s.line("return " + keyed + ";");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public boolean isFixedSize()");
        s.open();
        s.line("return " + fixed + ";");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public long maxSerializedSize()");
        s.open();
        s.line("return MAX_SERIALIZED_SIZE;");
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public io.sirocco.dds.type.DataRepresentation defaultRepresentation()");
        s.open();
        s.line("return " + CDR + "Xcdr.representationFor(EXTENSIBILITY, 2, false);");
        s.close();
    }

    String struct(final Decls.Struct st)
    {
        final Src s = new Src();
        final String cls = naming.className(st);
        final boolean keyed = st.hasKeys();
        common(s, st, cls, st.extensibility, keyed, options.foreign() && FlatGen.eligible(st));
        final List<Decls.Member> all = st.allMembers();
        s.line("/** The key holder's maximum size: at most 16 bytes means the KeyHash is the zero-padded holder. */");
        s.line("public static final long MAX_KEY_HOLDER_SIZE = " + SizeCalc.maxKeyHolderSize(st) + "L;");
        s.line("");
        s.line("@Override");
        s.line("public void copyKey(final " + cls + " sample, final " + cls + " keyHolder)");
        s.open();
        for (final Decls.Member m : all)
        {
            if (m.key)
            {
                final String f = Naming.member(m.name);
                s.line("keyHolder." + f + " = " + helper.copyExpr(m.type, "sample." + f, false) + ";");
            }
        }
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public void keyHash(final " + cls + " sample, final byte[] out16)");
        s.open();
        if (keyed)
        {
            s.line(CDR + "KeyHashes.compute(sample, MAX_KEY_HOLDER_SIZE, " + cls + "TypeSupport::writeKeyHolder, out16);");
        }
        else
        {
            s.line("java.util.Arrays.fill(out16, 0, " + CDR + "KeyHashes.KEY_HASH_LENGTH, (byte) 0);");
        }
        s.close();
        writeStruct(s, st, cls, all);
        new StructReadGen(reader, helper).readStruct(s, st, cls, all);
        s.line("");
        s.line("/** The key holder (XTypes 1.3 §7.6.8): key members by member id, or all members when unkeyed. */");
        s.line("public static void writeKeyHolder(final " + CDR + "CdrWriter w, final " + cls + " v)");
        s.open();
        for (final Decls.Member m : SizeCalc.keyHolderMembers(st))
        {
            codec.write(s, m.type, "v." + Naming.member(m.name), cls + "." + m.name, true);
        }
        s.close();
        if (options.randomSamples())
        {
            new RandomSampleGen(naming, helper).randomStruct(s, st, cls, all);
        }
        s.close();
        return s.toString();
    }

    private void rangeCheck(final Src s, final Decls.Member m, final String expr, final String cls)
    {
        if (m.rangeMin == null)
        {
            return;
        }
        final PrimKind k = Types.prim(m.type);
        final String min = Naming.primLiteral(m.rangeMin, k);
        final String max = Naming.primLiteral(m.rangeMax, k);
        final String cond;
        switch (k)
        {
            case UINT8, OCTET -> cond = "(" + expr + " & 0xff) < (" + min + " & 0xff) || (" + expr + " & 0xff) > ("
                + max + " & 0xff)";
            case UINT16 -> cond = "(" + expr + " & 0xffff) < (" + min + " & 0xffff) || (" + expr + " & 0xffff) > ("
                + max + " & 0xffff)";
            case UINT32 -> cond = "java.lang.Integer.compareUnsigned(" + expr + ", " + min + ") < 0 || "
                + "java.lang.Integer.compareUnsigned(" + expr + ", " + max + ") > 0";
            case UINT64 -> cond = "java.lang.Long.compareUnsigned(" + expr + ", " + min + ") < 0 || "
                + "java.lang.Long.compareUnsigned(" + expr + ", " + max + ") > 0";
            default -> cond = expr + " < " + min + " || " + expr + " > " + max;
        }
        s.line("if (" + cond + ")");
        s.open();
        s.line("throw new java.lang.IllegalArgumentException(\"" + cls + "." + m.name + ": value \" + " + expr
            + " + \" is outside @range\");");
        s.close();
    }

    private void writeMemberValue(final Src s, final Decls.Member m, final String cls)
    {
        final String f = "v." + Naming.member(m.name);
        if (m.optional)
        {
            rangeCheckOptional(s, m, f, cls);
        }
        else
        {
            rangeCheck(s, m, f, cls);
        }
        codec.write(s, m.type, f, cls + "." + m.name, false);
    }

    private void rangeCheckOptional(final Src s, final Decls.Member m, final String f, final String cls)
    {
        if (m.rangeMin != null)
        {
            s.line("if (" + f + " != null)");
            s.open();
            rangeCheck(s, m, f, cls);
            s.close();
        }
    }

    private void writeStruct(final Src s, final Decls.Struct st, final String cls, final List<Decls.Member> all)
    {
        s.line("");
        s.line("/** Writes the body: members, with the headers this type's extensibility needs. */");
        s.line("public static void write(final " + CDR + "CdrWriter w, final " + cls + " v)");
        s.open();
        if (st.extensibility == Decls.Extensibility.MUTABLE)
        {
            writeMutableMembers(s, cls, all);
            s.close();
            return;
        }
        final boolean appendable = st.extensibility == Decls.Extensibility.APPENDABLE;
        if (appendable)
        {
            s.line("final long dh = w.xcdrVersion() == 2 ? w.beginDHeader() : -1;");
        }
        for (final Decls.Member m : all)
        {
            final String f = "v." + Naming.member(m.name);
            if (m.optional)
            {
                s.line("if (w.xcdrVersion() == 2)");
                s.open();
                s.line("w.writeBoolean(" + f + " != null);");
                s.line("if (" + f + " != null)");
                s.open();
                writeMemberValue(s, m, cls);
                s.close();
                s.close();
                s.line("else");
                s.open();
                s.line("final long p = w.beginParameter(" + m.id + ", false);");
                s.line("if (" + f + " != null)");
                s.open();
                writeMemberValue(s, m, cls);
                s.close();
                s.line("w.endParameter(p, " + Naming.stringLiteral(cls + "." + m.name) + ");");
                s.close();
            }
            else
            {
                writeMemberValue(s, m, cls);
            }
        }
        if (appendable)
        {
            s.line("if (dh >= 0)");
            s.open();
            s.line("w.endDHeader(dh);");
            s.close();
        }
        s.close();
    }

    /** A mutable struct's members: EMHEADER1s inside a DHEADER in XCDR2, a parameter list in XCDR1. */
    private void writeMutableMembers(final Src s, final String cls, final List<Decls.Member> all)
    {
        s.line("if (w.xcdrVersion() == 2)");
        s.open();
        s.line("final long dh = w.beginDHeader();");
        for (final Decls.Member m : all)
        {
            final String f = "v." + Naming.member(m.name);
            if (m.optional)
            {
                s.line("if (" + f + " != null)");
            }
            s.open();
            final int ps = SizeCalc.primSize(m.type);
            if (ps > 0)
            {
                final int lc = ps == 1 ? 0 : ps == 2 ? 1 : ps == 4 ? 2 : 3;
                s.line("w.writeEmHeader(" + m.id + ", " + m.key + ", " + lc + ");");
                writeMemberValue(s, m, cls);
            }
            else
            {
                s.line("final long mh = w.beginEmHeaderNextInt(" + m.id + ", " + m.key + ");");
                writeMemberValue(s, m, cls);
                s.line("w.endEmHeaderNextInt(mh);");
            }
            s.close();
        }
        s.line("w.endDHeader(dh);");
        s.close();
        s.line("else");
        s.open();
        for (final Decls.Member m : all)
        {
            final String f = "v." + Naming.member(m.name);
            if (m.optional)
            {
                s.line("if (" + f + " != null)");
            }
            s.open();
            s.line("final long p = w.beginParameter(" + m.id + ", " + m.key + ");");
            writeMemberValue(s, m, cls);
            s.line("w.endParameter(p, " + Naming.stringLiteral(cls + "." + m.name) + ");");
            s.close();
        }
        s.line("w.writeParameterListEnd();");
        s.close();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Unions

    String union(final Decls.Union u)
    {
        final Src s = new Src();
        final String cls = naming.className(u);
        common(s, u, cls, u.extensibility, false, false);
        s.line("");
        s.line("@Override");
        s.line("public void copyKey(final " + cls + " sample, final " + cls + " keyHolder)");
        s.open();
        s.close();
        s.line("");
        s.line("@Override");
        s.line("public void keyHash(final " + cls + " sample, final byte[] out16)");
        s.open();
        s.line("java.util.Arrays.fill(out16, 0, " + CDR + "KeyHashes.KEY_HASH_LENGTH, (byte) 0);");
        s.close();
        final boolean appendable = u.extensibility == Decls.Extensibility.APPENDABLE;
        writeUnion(s, u, cls, appendable);
        readUnion(s, u, cls, appendable);
        if (options.randomSamples())
        {
            new RandomSampleGen(naming, helper).randomUnion(s, u, cls);
        }
        s.close();
        return s.toString();
    }

    /** The union's write: the discriminator, then the selected branch, inside a DHEADER when appendable. */
    private void writeUnion(final Src s, final Decls.Union u, final String cls, final boolean appendable)
    {
        s.line("");
        s.line("/** Writes the discriminator, then the selected branch (XTypes 1.3 §7.4.3.5.6). */");
        s.line("public static void write(final " + CDR + "CdrWriter w, final " + cls + " v)");
        s.open();
        if (appendable)
        {
            s.line("final long dh = w.xcdrVersion() == 2 ? w.beginDHeader() : -1;");
        }
        codec.write(s, u.discriminator, "v._d", cls + ".discriminator", false);
        boolean first = true;
        for (final Decls.UnionCase c : u.cases)
        {
            s.line((first ? "if (" : "else if (") + helper.selects(u, c, "v._d") + ")");
            s.open();
            codec.write(s, c.member.type, "v." + ValueExprs.unionField(c), cls + "." + c.member.name, false);
            s.close();
            first = false;
        }
        if (appendable)
        {
            s.line("if (dh >= 0)");
            s.open();
            s.line("w.endDHeader(dh);");
            s.close();
        }
        s.close();
    }

    /** The union's read, into a reused sample: the discriminator, then the selected branch. */
    private void readUnion(final Src s, final Decls.Union u, final String cls, final boolean appendable)
    {
        s.line("");
        s.line("@SuppressWarnings(\"unchecked\")");
        s.line("public static " + cls + " read(final " + CDR + "CdrReader r, final " + cls + " reuse)");
        s.open();
        s.line("final " + cls + " v = reuse != null ? reuse : new " + cls + "();");
        if (appendable)
        {
            s.line("final long end = r.xcdrVersion() == 2 ? r.readDHeader() : -1;");
        }
        s.line(naming.javaType(u.discriminator) + " d;");
        reader.read(s, u.discriminator, "d");
        s.line("v._d = d;");
        boolean first = true;
        for (final Decls.UnionCase c : u.cases)
        {
            s.line((first ? "if (" : "else if (") + helper.selects(u, c, "d") + ")");
            s.open();
            reader.read(s, c.member.type, "v." + ValueExprs.unionField(c));
            s.close();
            first = false;
        }
        if (appendable)
        {
            s.line("if (end >= 0)");
            s.open();
            s.line("r.position(end);");
            s.close();
        }
        s.line("return v;");
        s.close();
    }
}
