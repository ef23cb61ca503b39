package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.List;

/**
 * Generates the {@code read} method of a struct codec: the body in XCDR1 or XCDR2, final, appendable (skipping
 * members a newer writer appended) or mutable (members by id in any order, unknown ones skipped), each member
 * optional or not.
 */
final class StructReadGen
{
    private static final String CDR = "io.sirocco.dds.type.cdr.";

    private final CodecReader codec;
    private final ValueExprs values;

    StructReadGen(final CodecReader codec, final ValueExprs values)
    {
        this.codec = codec;
        this.values = values;
    }

    private void readMember(final Src s, final Decls.Member m)
    {
        final String f = "v." + Naming.member(m.name);
        if (!m.optional)
        {
            codec.read(s, m.type, f);
            return;
        }
        s.line("if (r.xcdrVersion() == 2)");
        s.open();
        s.line("if (r.readBoolean())");
        s.open();
        codec.read(s, m.type, f);
        s.close();
        s.line("else");
        s.open();
        s.line(f + " = null;");
        s.close();
        s.close();
        s.line("else");
        s.open();
        s.line("r.readParameterHeader();");
        s.line("final long size = r.memberSize();");
        s.line("if (size == 0)");
        s.open();
        s.line(f + " = null;");
        s.close();
        s.line("else");
        s.open();
        s.line("final long memberEnd = r.position() + size;");
        codec.read(s, m.type, f);
        s.line("r.position(memberEnd);");
        s.close();
        s.close();
    }

    void readStruct(final Src s, final Decls.Struct st, final String cls, final List<Decls.Member> all)
    {
        s.line("");
        s.line("/** Reads a body into {@code reuse} (or a new sample when null) and returns it. */");
        s.line("@SuppressWarnings(\"unchecked\")");
        s.line("public static " + cls + " read(final " + CDR + "CdrReader r, final " + cls + " reuse)");
        s.open();
        s.line("final " + cls + " v = reuse != null ? reuse : new " + cls + "();");
        if (st.extensibility == Decls.Extensibility.MUTABLE)
        {
            readMutableMembers(s, all);
            s.line("return v;");
            s.close();
            return;
        }
        if (st.extensibility == Decls.Extensibility.APPENDABLE)
        {
            s.line("final long end = r.xcdrVersion() == 2 ? r.readDHeader() : java.lang.Long.MAX_VALUE;");
            for (final Decls.Member m : all)
            {
                s.line("if (r.position() < end)");
                s.open();
                readMember(s, m);
                s.close();
                s.line("else");
                s.open();
                helperInit(s, m);
                s.close();
            }
            s.line("if (end != java.lang.Long.MAX_VALUE)");
            s.open();
            s.line("r.position(end);");
            s.close();
        }
        else
        {
            for (final Decls.Member m : all)
            {
                readMember(s, m);
            }
        }
        s.line("return v;");
        s.close();
    }

    /** A mutable struct's members in any order: EMHEADER1s in XCDR2, parameter headers in XCDR1. */
    private void readMutableMembers(final Src s, final List<Decls.Member> all)
    {
        for (final Decls.Member m : all)
        {
            helperInit(s, m);
        }
        s.line("if (r.xcdrVersion() == 2)");
        s.open();
        s.line("final long end = r.readDHeader();");
        s.line("while (r.position() < end)");
        s.open();
        s.line("final int header = r.readEmHeader();");
        s.line("final long memberEnd = r.position() + r.memberSize();");
        memberSwitch(s, all);
        s.line("r.position(memberEnd);");
        s.close();
        s.line("r.position(end);");
        s.close();
        s.line("else");
        s.open();
        s.line("while (true)");
        s.open();
        s.line("final int header = r.readParameterHeader();");
        s.line("if (header == -1)");
        s.open();
        s.line("break;");
        s.close();
        s.line("final long memberEnd = r.position() + r.memberSize();");
        memberSwitch(s, all);
        s.line("r.position(memberEnd);");
        s.close();
        s.close();
    }

    private void helperInit(final Src s, final Decls.Member m)
    {
        final String f = "v." + Naming.member(m.name);
        if (!m.optional && Types.unalias(m.type) instanceof TypeRef.Arr)
        {
            values.arrayInit(s, f, Types.unalias(m.type));
        }
        else
        {
            s.line(f + " = " + values.initExpr(m) + ";");
        }
    }

    private void memberSwitch(final Src s, final List<Decls.Member> all)
    {
        s.line("switch (header & " + CDR + "Xcdr.EMHEADER_ID_MASK)");
        s.open();
        for (final Decls.Member m : all)
        {
            s.line("case " + m.id + ":");
            s.open();
            codec.read(s, m.type, "v." + Naming.member(m.name));
            s.line("break;");
            s.close();
        }
        s.line("default:");
        s.open();
        s.line("r.unknownMember(header);");
        s.line("break;");
        s.close();
        s.close();
    }
}
