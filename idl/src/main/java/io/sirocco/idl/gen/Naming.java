package io.sirocco.idl.gen;

import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;
import io.sirocco.idl.model.Types;

import java.math.BigInteger;
import java.util.Set;

/** The IDL-to-Java name and type mapping (classic OMG IDL-to-Java style, see docs/idl.md). */
final class Naming
{
    private static final Set<String> JAVA_KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
        "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
        "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long",
        "native", "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
        "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while",
        "true", "false", "null", "var", "record", "yield", "sealed", "permits", "when", "_", "exports", "module",
        "requires", "open", "opens", "to", "uses", "provides", "with", "transitive", "non");

    private final GeneratorOptions options;

    Naming(final GeneratorOptions options)
    {
        this.options = options;
    }

    static String id(final String name)
    {
        return JAVA_KEYWORDS.contains(name) ? "_" + name : name;
    }

    /** Member names also avoid the methods generated on unions and structs. */
    static String member(final String name)
    {
        return switch (name)
        {
            case "discriminator", "__default", "equals", "hashCode", "toString", "getClass", "notify", "notifyAll",
                "wait", "clone", "finalize" -> "_" + name;
            default -> id(name);
        };
    }

    String packageOf(final Decl d)
    {
        final StringBuilder sb = new StringBuilder(options.packagePrefix());
        if (d.scope.isEmpty())
        {
            if (!options.globalPackage().isEmpty())
            {
                sb.setLength(0);
                sb.append(options.globalPackage());
            }
            return sb.toString();
        }
        for (final String part : d.scope.split("::"))
        {
            if (!sb.isEmpty())
            {
                sb.append('.');
            }
            sb.append(id(part));
        }
        return sb.toString();
    }

    String className(final Decl d)
    {
        return id(d.name);
    }

    String fqn(final Decl d)
    {
        final String pkg = packageOf(d);
        return pkg.isEmpty() ? className(d) : pkg + "." + className(d);
    }

    String fqn(final Decl d, final String suffix)
    {
        return fqn(d) + suffix;
    }

    static boolean isJavaPrimitive(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        return t instanceof TypeRef.Prim || t instanceof TypeRef.Named n && n.target instanceof Decls.Bitmask;
    }

    /** The Java type of a value of this IDL type. */
    String javaType(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        return switch (t)
        {
            case TypeRef.Prim p -> p.kind().javaType();
            case TypeRef.Str s -> "java.lang.String";
            case TypeRef.Seq s -> isJavaPrimitive(s.element) && !(Types.unalias(s.element) instanceof TypeRef.Named)
                ? javaType(s.element) + "[]"
                : isJavaPrimitive(s.element) ? javaType(s.element) + "[]"
                : "java.util.List<" + boxed(s.element) + ">";
            case TypeRef.Arr a -> javaType(Types.arrayElement(t)) + "[]".repeat(Types.dims(t).length);
            case TypeRef.Named n -> switch (n.target)
            {
                case Decls.Bitmask b -> b.bitBound > 32 ? "long" : "int";
                default -> fqn(n.target);
            };
        };
    }

    /** The Java type usable as a generic argument or an optional member. */
    String boxed(final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        if (t instanceof TypeRef.Prim p)
        {
            return "java.lang." + p.kind().boxed();
        }
        if (t instanceof TypeRef.Named n && n.target instanceof Decls.Bitmask b)
        {
            return b.bitBound > 32 ? "java.lang.Long" : "java.lang.Integer";
        }
        return javaType(t);
    }

    /** A Java literal for a resolved constant value of the given IDL type. */
    String literal(final Object value, final TypeRef type)
    {
        final TypeRef t = Types.unalias(type);
        if (value instanceof Decls.EnumValue ev)
        {
            return fqn(ev.owner) + "." + id(ev.enumerator.name);
        }
        if (t instanceof TypeRef.Prim p)
        {
            return primLiteral(value, p.kind());
        }
        if (value instanceof String s)
        {
            return stringLiteral(s);
        }
        throw new IllegalStateException("no literal for " + value);
    }

    static String primLiteral(final Object value, final PrimKind k)
    {
        switch (k)
        {
            case BOOLEAN:
                return value.toString();
            case CHAR:
            case WCHAR:
                return charLiteral((Character)value);
            case FLOAT32:
            case FLOAT64:
            {
                final double d = ((Number)value).doubleValue();
                final String suffix = k == PrimKind.FLOAT32 ? "f" : "d";
                final String box = k == PrimKind.FLOAT32 ? "Float" : "Double";
                if (Double.isNaN(d))
                {
                    return "java.lang." + box + ".NaN";
                }
                if (Double.isInfinite(d))
                {
                    return "java.lang." + box + (d > 0 ? ".POSITIVE_INFINITY" : ".NEGATIVE_INFINITY");
                }
                return (k == PrimKind.FLOAT32 ? Float.toString((float)d) : Double.toString(d)) + suffix;
            }
            default:
            {
                final BigInteger b = (BigInteger)value;
                return switch (k.size())
                {
                    case 1 -> "(byte) " + b.byteValue();
                    case 2 -> "(short) " + b.shortValue();
                    case 4 -> b.intValue() == Integer.MIN_VALUE ? "java.lang.Integer.MIN_VALUE"
                        : Integer.toString(b.intValue());
                    default -> b.longValue() == Long.MIN_VALUE ? "java.lang.Long.MIN_VALUE" : b.longValue() + "L";
                };
            }
        }
    }

    static String charLiteral(final char c)
    {
        return "'" + escape(c, '\'') + "'";
    }

    static String stringLiteral(final String s)
    {
        final StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++)
        {
            sb.append(escape(s.charAt(i), '"'));
        }
        return sb.append('"').toString();
    }

    private static String escape(final char c, final char quote)
    {
        if (c == quote || c == '\\')
        {
            return "\\" + c;
        }
        if (c < 0x20 || c == 0x7f)
        {
            return String.format("\\%03o", (int)c);
        }
        if (c > 0x7f)
        {
            return String.format("\\u%04x", (int)c);
        }
        return String.valueOf(c);
    }
}
