package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.List;

/**
 * Generates the Java class of a struct: public fields, the default, all-members and copy constructors, and
 * equals, hashCode and toString over the members (after the base's).
 */
final class StructClassGen
{
    private final Naming naming;
    private final ValueExprs values;

    StructClassGen(final Naming naming, final ValueExprs values)
    {
        this.naming = naming;
        this.values = values;
    }

    String structClass(final Decls.Struct s)
    {
        final Src src = new Src();
        final String cls = naming.className(s);
        src.line(GeneratedHeader.header(s).strip());
        src.line("public class " + cls + (s.base != null ? " extends " + naming.fqn(s.base) : ""));
        src.open();
        for (final Decls.Member m : s.members)
        {
            final String jt = m.optional ? naming.boxed(m.type) : naming.javaType(m.type);
            src.line("public " + jt + " " + Naming.member(m.name) + ";");
        }
        src.line("");
        src.line("/** Every member at its IDL default (or its {@code @default}); optional members absent. */");
        src.line("@SuppressWarnings(\"unchecked\")");
        src.line("public " + cls + "()");
        src.open();
        for (final Decls.Member m : s.members)
        {
            init(src, "this." + Naming.member(m.name), m);
        }
        src.close();
        allMembersConstructor(src, s, cls);
        src.line("");
        src.line("/** A deep copy of {@code other}. */");
        src.line("public " + cls + "(final " + cls + " other)");
        src.open();
        if (s.base != null)
        {
            src.line("super(other);");
        }
        for (final Decls.Member m : s.members)
        {
            final String f = Naming.member(m.name);
            src.line("this." + f + " = " + values.copyExpr(m.type, "other." + f, m.optional) + ";");
        }
        src.close();
        equalsHashToString(src, cls, s.members, s.base != null);
        src.close();
        return src.toString();
    }

    /** The constructor taking every member, base members first (none for a struct without members). */
    private void allMembersConstructor(final Src src, final Decls.Struct s, final String cls)
    {
        final List<Decls.Member> all = s.allMembers();
        if (!all.isEmpty())
        {
            src.line("");
            src.line("/** Every member, base members first. Arrays and collections are taken, not copied. */");
            final StringBuilder params = new StringBuilder();
            for (final Decls.Member m : all)
            {
                if (!params.isEmpty())
                {
                    params.append(", ");
                }
                params.append("final ").append(m.optional ? naming.boxed(m.type) : naming.javaType(m.type)).append(' ')
                    .append(Naming.member(m.name));
            }
            src.line("public " + cls + "(" + params + ")");
            src.open();
            if (s.base != null)
            {
                final StringBuilder args = new StringBuilder();
                for (final Decls.Member m : s.base.allMembers())
                {
                    if (!args.isEmpty())
                    {
                        args.append(", ");
                    }
                    args.append(Naming.member(m.name));
                }
                src.line("super(" + args + ");");
            }
            for (final Decls.Member m : s.members)
            {
                src.line("this." + Naming.member(m.name) + " = " + Naming.member(m.name) + ";");
            }
            src.close();
        }
    }

    private void init(final Src src, final String target, final Decls.Member m)
    {
        final TypeRef t = Types.unalias(m.type);
        if (!m.optional && t instanceof TypeRef.Arr)
        {
            values.arrayInit(src, target, t);
            return;
        }
        src.line(target + " = " + values.initExpr(m) + ";");
    }

    private void equalsHashToString(final Src src, final String cls, final List<Decls.Member> members,
        final boolean hasBase)
    {
        src.line("");
        src.line("@Override");
        src.line("public boolean equals(final java.lang.Object o)");
        src.open();
        src.line("if (this == o)");
        src.open();
        src.line("return true;");
        src.close();
        src.line("if (o == null || o.getClass() != getClass()" + (hasBase ? " || !super.equals(o)" : "") + ")");
        src.open();
        src.line("return false;");
        src.close();
        src.line("final " + cls + " that = (" + cls + ") o;");
        final StringBuilder cond = new StringBuilder("true");
        for (final Decls.Member m : members)
        {
            cond.append("\n            && ").append(fieldEquals(m, "this." + Naming.member(m.name),
                "that." + Naming.member(m.name)));
        }
        src.line("return " + cond + ";");
        src.close();
        src.line("");
        src.line("@Override");
        src.line("public int hashCode()");
        src.open();
        src.line("int h = " + (hasBase ? "super.hashCode()" : "17") + ";");
        for (final Decls.Member m : members)
        {
            src.line("h = 31 * h + " + fieldHash(m, "this." + Naming.member(m.name)) + ";");
        }
        src.line("return h;");
        src.close();
        src.line("");
        src.line("@Override");
        src.line("public java.lang.String toString()");
        src.open();
        final StringBuilder sb = new StringBuilder("\"" + cls + "{\"");
        boolean first = !hasBase;
        if (hasBase)
        {
            sb.append(" + super.toString()");
        }
        for (final Decls.Member m : members)
        {
            sb.append(" + \"").append(first ? "" : ", ").append(m.name).append("=\" + io.sirocco.dds.type.cdr.Values"
                + ".toString(this.").append(Naming.member(m.name)).append(')');
            first = false;
        }
        sb.append(" + \"}\"");
        src.line("return " + sb + ";");
        src.close();
    }

    private String fieldEquals(final Decls.Member m, final String a, final String b)
    {
        final TypeRef t = Types.unalias(m.type);
        if (!m.optional && t instanceof TypeRef.Prim p)
        {
            return switch (p.kind())
            {
                case FLOAT32 -> "java.lang.Float.compare(" + a + ", " + b + ") == 0";
                case FLOAT64 -> "java.lang.Double.compare(" + a + ", " + b + ") == 0";
                default -> a + " == " + b;
            };
        }
        if (!m.optional && t instanceof TypeRef.Named n && n.target instanceof Decls.Bitmask)
        {
            return a + " == " + b;
        }
        return "io.sirocco.dds.type.cdr.Values.deepEquals(" + a + ", " + b + ")";
    }

    private String fieldHash(final Decls.Member m, final String a)
    {
        final TypeRef t = Types.unalias(m.type);
        if (!m.optional && Naming.isJavaPrimitive(t))
        {
            return "java.lang." + naming.boxed(t).substring("java.lang.".length()) + ".hashCode(" + a + ")";
        }
        return "io.sirocco.dds.type.cdr.Values.deepHashCode(" + a + ")";
    }
}
