package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Java expressions for values of IDL types, shared by the generated classes and codecs: initial values and
 * defaults, array allocation, deep copies, union branch fields, discriminator literals and case selection.
 *
 * <p>Not thread-safe: it numbers the lambda parameters of the copies it writes, so one generator uses one
 * instance, in declaration order, and the generated text is the same on every run.
 */
final class ValueExprs
{
    private final Naming naming;
    private int lambdaCounter;

    ValueExprs(final Naming naming)
    {
        this.naming = naming;
    }

    /** The Java expression for a member's initial value: its @default, else the IDL default. */
    String initExpr(final Decls.Member m)
    {
        if (m.optional)
        {
            return "null";
        }
        if (m.defaultValue != null)
        {
            return naming.literal(m.defaultValue, m.type);
        }
        return defaultValue(m.type);
    }

    String defaultValue(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        return switch (t)
        {
            case TypeRef.Prim p -> switch (p.kind())
            {
                case BOOLEAN -> "false";
                case CHAR, WCHAR -> "'\\000'";
                case FLOAT32 -> "0.0f";
                case FLOAT64 -> "0.0d";
                case INT64, UINT64 -> "0L";
                case INT32, UINT32 -> "0";
                case INT16, UINT16 -> "(short) 0";
                default -> "(byte) 0";
            };
            case TypeRef.Str s -> "\"\"";
            case TypeRef.Seq s -> Naming.isJavaPrimitive(s.element)
                ? "new " + naming.javaType(s.element) + "[0]" : "new java.util.ArrayList<>()";
            case TypeRef.Arr a -> ArrayExprs.newArrayFull(naming.javaType(Types.arrayElement(t)), Types.dims(t));
            case TypeRef.Named n -> switch (n.target)
            {
                case Decls.Enum e -> naming.fqn(e) + "." + Naming.id(e.enumerators.getFirst().name);
                case Decls.Bitmask b -> b.bitBound > 32 ? "0L" : "0";
                default -> "new " + naming.fqn(n.target) + "()";
            };
        };
    }

    /** Allocates an array member and fills non-primitive elements with their defaults. */
    void arrayInit(final Src src, final String target, final TypeRef t)
    {
        final int[] dims = Types.dims(t);
        final TypeRef element = Types.arrayElement(t);
        final String jt = naming.javaType(element);
        src.line(target + " = " + ArrayExprs.newArrayFull(jt, dims) + ";");
        if (Naming.isJavaPrimitive(element))
        {
            return;
        }
        src.open();
        final StringBuilder index = new StringBuilder();
        for (final int d : dims)
        {
            final String i = src.fresh("i");
            src.line("for (int " + i + " = 0; " + i + " < " + d + "; " + i + "++)");
            src.open();
            index.append('[').append(i).append(']');
        }
        src.line(target + index + " = " + defaultValue(element) + ";");
        for (int k = 0; k < dims.length; k++)
        {
            src.close();
        }
        src.close();
    }

    /** A deep-copy expression for a value of the type. */
    String copyExpr(final TypeRef type, final String expr, final boolean nullable)
    {
        final TypeRef t = Types.unalias(type);
        final String copy = switch (t)
        {
            case TypeRef.Prim p -> null;
            case TypeRef.Str s -> null;
            case TypeRef.Seq s -> Naming.isJavaPrimitive(s.element) ? expr + ".clone()"
                : elementCopyIsIdentity(s.element) ? "new java.util.ArrayList<>(" + expr + ")"
                : copyList(s.element, expr);
            case TypeRef.Arr a -> arrayCopy(naming.javaType(Types.arrayElement(t)), Types.arrayElement(t),
                Types.dims(t).length, expr);
            case TypeRef.Named n -> switch (n.target)
            {
                case Decls.Enum e -> null;
                case Decls.Bitmask b -> null;
                default -> "new " + naming.fqn(n.target) + "(" + expr + ")";
            };
        };
        if (copy == null)
        {
            return expr;
        }
        return nullable || !(t instanceof TypeRef.Prim) ? "(" + expr + " == null ? null : " + copy + ")" : copy;
    }

    private String copyList(final TypeRef element, final String expr)
    {
        final String e = "e" + lambdaCounter++;
        return "io.sirocco.dds.type.cdr.Values.copyList(" + expr + ", " + e + " -> " + copyExpr(element, e, true) + ")";
    }

    private static boolean elementCopyIsIdentity(final TypeRef element)
    {
        final TypeRef t = Types.unalias(element);
        return t instanceof TypeRef.Prim || t instanceof TypeRef.Str
            || t instanceof TypeRef.Named n && (n.target instanceof Decls.Enum || n.target instanceof Decls.Bitmask);
    }

    private String arrayCopy(final String elementType, final TypeRef element, final int rank, final String expr)
    {
        if (rank == 1)
        {
            if (elementCopyIsIdentity(element))
            {
                return expr + ".clone()";
            }
            final String e = "e" + lambdaCounter++;
            return "io.sirocco.dds.type.cdr.Values.copyArray(" + expr + ", " + e + " -> " + copyExpr(element, e, true)
                + ")";
        }
        final String x = "x" + lambdaCounter++;
        final String inner = arrayCopy(elementType, element, rank - 1, x);
        return "io.sirocco.dds.type.cdr.Values.copyArray(" + expr + ", " + x + " -> (" + x + " == null ? null : "
            + inner + "))";
    }

    static String unionField(final Decls.UnionCase c)
    {
        return "__" + c.member.name;
    }

    String discLiteral(final Decls.Union u, final Object value)
    {
        return naming.literal(value, u.discriminator);
    }

    /** A boolean expression: {@code d} selects case {@code c} (for the default case: no other label matches). */
    String selects(final Decls.Union u, final Decls.UnionCase c, final String d)
    {
        final List<String> terms = new ArrayList<>();
        if (c.isDefault)
        {
            for (final Decls.UnionCase other : u.cases)
            {
                for (final Object v : other.labelValues)
                {
                    terms.add(d + " != " + discLiteral(u, v));
                }
            }
            return terms.isEmpty() ? "true" : String.join(" && ", terms);
        }
        for (final Object v : c.labelValues)
        {
            terms.add(d + " == " + discLiteral(u, v));
        }
        return terms.isEmpty() ? "false" : "(" + String.join(" || ", terms) + ")";
    }
}
