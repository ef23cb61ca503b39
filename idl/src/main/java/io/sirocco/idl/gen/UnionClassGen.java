package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

/**
 * Generates the Java class of a union: the discriminator and one field per branch, constructors, a getter and
 * two setters per branch (one choosing the discriminator, one checking it), the default setter, and equals,
 * hashCode and toString over the discriminator and the selected branch.
 */
final class UnionClassGen
{
    private final Naming naming;
    private final ValueExprs values;

    UnionClassGen(final Naming naming, final ValueExprs values)
    {
        this.naming = naming;
        this.values = values;
    }

    String unionClass(final Decls.Union u)
    {
        final Src src = new Src();
        final String cls = naming.className(u);
        final String dt = discType(u);
        src.line(GeneratedHeader.header(u).strip());
        src.line("public class " + cls);
        src.open();
        src.line(dt + " _d;");
        for (final Decls.UnionCase c : u.cases)
        {
            src.line(naming.javaType(c.member.type) + " " + ValueExprs.unionField(c) + ";");
        }
        src.line("");
        constructors(src, u, cls);
        src.line("");
        src.line("public " + dt + " discriminator()");
        src.open();
        src.line("return _d;");
        src.close();
        for (final Decls.UnionCase c : u.cases)
        {
            branch(src, u, c, cls, dt);
        }
        defaultSetter(src, u);
        objectMethods(src, u, cls);
        src.close();
        return src.toString();
    }

    /** The default constructor (the first branch at its default) and the deep-copy constructor. */
    private void constructors(final Src src, final Decls.Union u, final String cls)
    {
        final Decls.UnionCase initial = u.cases.getFirst();
        final Object initialDisc = initial.isDefault ? u.defaultDiscriminator : initial.labelValues.getFirst();
        src.line("/** Selects the first branch, holding its default value. */");
        src.line("@SuppressWarnings(\"unchecked\")");
        src.line("public " + cls + "()");
        src.open();
        src.line("this._d = " + values.discLiteral(u, initialDisc) + ";");
        final Decls.Member im = initial.member;
        final TypeRef it = Types.unalias(im.type);
        if (it instanceof TypeRef.Arr)
        {
            values.arrayInit(src, "this." + ValueExprs.unionField(initial), it);
        }
        else
        {
            src.line("this." + ValueExprs.unionField(initial) + " = " + values.defaultValue(im.type) + ";");
        }
        src.close();
        src.line("");
        src.line("/** A deep copy of {@code other}. */");
        src.line("public " + cls + "(final " + cls + " other)");
        src.open();
        src.line("this._d = other._d;");
        for (final Decls.UnionCase c : u.cases)
        {
            final String field = ValueExprs.unionField(c);
            src.line("this." + field + " = " + values.copyExpr(c.member.type, "other." + field, true) + ";");
        }
        src.close();
    }

    /** The getter and the two setters of one branch. */
    private void branch(final Src src, final Decls.Union u, final Decls.UnionCase c, final String cls,
        final String dt)
    {
        final String name = Naming.member(c.member.name);
        final String jt = naming.javaType(c.member.type);
        final String field = ValueExprs.unionField(c);
        src.line("");
        src.line("/** The {@code " + c.member.name + "} branch; throws when the discriminator selects another. */");
        src.line("public " + jt + " " + name + "()");
        src.open();
        src.line("if (!(" + values.selects(u, c, "_d") + "))");
        src.open();
        src.line("throw new java.lang.IllegalStateException(\"union " + cls + ": discriminator \" + _d + \" does not"
            + " select " + c.member.name + "\");");
        src.close();
        src.line("return " + field + ";");
        src.close();
        src.line("");
        final Object first = c.isDefault ? u.defaultDiscriminator : c.labelValues.getFirst();
        src.line("/** Selects {@code " + c.member.name + "} with discriminator " + Naming.stringLiteral(
            String.valueOf(first instanceof Decls.EnumValue ev ? ev.name : first)).replace("\"", "")
            .replace("*/", "") + ". */");
        src.line("public void " + name + "(final " + jt + " value)");
        src.open();
        src.line("this._d = " + values.discLiteral(u, first) + ";");
        clearOthers(src, u, c);
        src.line("this." + field + " = value;");
        src.close();
        src.line("");
        src.line("/** Selects {@code " + c.member.name + "} with a discriminator that must select it. */");
        src.line("public void " + name + "(final " + dt + " discriminator, final " + jt + " value)");
        src.open();
        src.line("if (!(" + values.selects(u, c, "discriminator") + "))");
        src.open();
        src.line("throw new java.lang.IllegalArgumentException(\"union " + cls + ": discriminator \" + discriminator"
            + " + \" does not select " + c.member.name + "\");");
        src.close();
        src.line("this._d = discriminator;");
        clearOthers(src, u, c);
        src.line("this." + field + " = value;");
        src.close();
    }

    private void defaultSetter(final Src src, final Decls.Union u)
    {
        if (u.defaultDiscriminator != null)
        {
            src.line("");
            src.line("/** Sets the discriminator to a value no explicit case label names (the default). */");
            src.line("public void __default()");
            src.open();
            src.line("this._d = " + values.discLiteral(u, u.defaultDiscriminator) + ";");
            Decls.UnionCase def = null;
            for (final Decls.UnionCase c : u.cases)
            {
                if (c.isDefault)
                {
                    def = c;
                }
            }
            clearOthers(src, u, def);
            src.close();
        }
    }

    /** equals, hashCode and toString over the discriminator and the selected branch. */
    private void objectMethods(final Src src, final Decls.Union u, final String cls)
    {
        src.line("");
        src.line("@Override");
        src.line("public boolean equals(final java.lang.Object o)");
        src.open();
        src.line("if (this == o)");
        src.open();
        src.line("return true;");
        src.close();
        src.line("if (o == null || o.getClass() != getClass())");
        src.open();
        src.line("return false;");
        src.close();
        src.line("final " + cls + " that = (" + cls + ") o;");
        src.line("if (" + (Types.unalias(u.discriminator) instanceof TypeRef.Prim ? "this._d != that._d"
            : "this._d != that._d") + ")");
        src.open();
        src.line("return false;");
        src.close();
        for (final Decls.UnionCase c : u.cases)
        {
            src.line("if (" + values.selects(u, c, "_d") + ")");
            src.open();
            src.line("return io.sirocco.dds.type.cdr.Values.deepEquals(this." + ValueExprs.unionField(c) + ", that."
                + ValueExprs.unionField(c) + ");");
            src.close();
        }
        src.line("return true;");
        src.close();
        hashCodeAndToString(src, u, cls);
    }

    private void hashCodeAndToString(final Src src, final Decls.Union u, final String cls)
    {
        src.line("");
        src.line("@Override");
        src.line("public int hashCode()");
        src.open();
        src.line("final int h = java.util.Objects.hashCode(_d);");
        for (final Decls.UnionCase c : u.cases)
        {
            src.line("if (" + values.selects(u, c, "_d") + ")");
            src.open();
            src.line("return 31 * h + io.sirocco.dds.type.cdr.Values.deepHashCode(" + ValueExprs.unionField(c) + ");");
            src.close();
        }
        src.line("return h;");
        src.close();
        src.line("");
        src.line("@Override");
        src.line("public java.lang.String toString()");
        src.open();
        for (final Decls.UnionCase c : u.cases)
        {
            src.line("if (" + values.selects(u, c, "_d") + ")");
            src.open();
            src.line("return \"" + cls + "{d=\" + _d + \", " + c.member.name + "=\" + io.sirocco.dds.type.cdr.Values"
                + ".toString(" + ValueExprs.unionField(c) + ") + \"}\";");
            src.close();
        }
        src.line("return \"" + cls + "{d=\" + _d + \"}\";");
        src.close();
    }

    private String discType(final Decls.Union u)
    {
        return naming.javaType(u.discriminator);
    }

    private void clearOthers(final Src src, final Decls.Union u, final Decls.UnionCase keep)
    {
        for (final Decls.UnionCase c : u.cases)
        {
            if (c != keep && !Naming.isJavaPrimitive(c.member.type))
            {
                src.line("this." + ValueExprs.unionField(c) + " = null;");
            }
        }
    }
}
