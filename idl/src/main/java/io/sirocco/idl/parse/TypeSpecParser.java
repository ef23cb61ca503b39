package io.sirocco.idl.parse;

import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.TypeRef;

import java.util.Map;
import java.util.Set;

/**
 * Type specifications (IDL 4.2 §7.4.1.4.4): primitives (one word, or {@code long long}, {@code unsigned ...}),
 * bounded and unbounded strings, sequences and scoped names. Array dimensions belong to declarators and are parsed
 * by {@link Parser}.
 */
final class TypeSpecParser
{
    /** The primitive types spelled as one word that no other word can follow. */
    private static final Map<String, PrimKind> ONE_WORD = Map.ofEntries(
        Map.entry("boolean", PrimKind.BOOLEAN), Map.entry("char", PrimKind.CHAR), Map.entry("wchar", PrimKind.WCHAR),
        Map.entry("octet", PrimKind.OCTET), Map.entry("int8", PrimKind.INT8), Map.entry("uint8", PrimKind.UINT8),
        Map.entry("int16", PrimKind.INT16), Map.entry("uint16", PrimKind.UINT16), Map.entry("int32", PrimKind.INT32),
        Map.entry("uint32", PrimKind.UINT32), Map.entry("int64", PrimKind.INT64), Map.entry("uint64", PrimKind.UINT64),
        Map.entry("float", PrimKind.FLOAT32), Map.entry("double", PrimKind.FLOAT64),
        Map.entry("short", PrimKind.INT16));

    private static final Set<String> UNSUPPORTED = Set.of("any", "Object", "fixed", "map", "ValueBase", "void");

    private final TokenCursor in;
    private final ExprParser expressions;

    TypeSpecParser(final TokenCursor in, final ExprParser expressions)
    {
        this.in = in;
        this.expressions = expressions;
    }

    TypeRef typeSpec() throws IdlException
    {
        final Token t = in.peek();
        if (t.is("::"))
        {
            return new TypeRef.Named(in.scopedName(), t.pos());
        }
        if (t.kind() != Token.Kind.IDENT)
        {
            throw TokenCursor.error(t, "expected a type but found " + t.describe());
        }
        final PrimKind oneWord = ONE_WORD.get(t.text());
        if (oneWord != null)
        {
            in.next();
            return new TypeRef.Prim(oneWord, t.pos());
        }
        if (UNSUPPORTED.contains(t.text()))
        {
            throw TokenCursor.error(t, "type '" + t.text() + "' is not supported");
        }
        return switch (t.text())
        {
            case "long" -> longType(t);
            case "unsigned" -> unsignedType(t);
            case "string", "wstring" -> stringType(t);
            case "sequence" -> sequenceType(t);
            default -> new TypeRef.Named(in.scopedName(), t.pos());
        };
    }

    private TypeRef longType(final Token t) throws IdlException
    {
        in.next();
        if (in.atKeyword("long"))
        {
            in.next();
            return new TypeRef.Prim(PrimKind.INT64, t.pos());
        }
        if (in.atKeyword("double"))
        {
            throw TokenCursor.error(t, "'long double' is not supported");
        }
        return new TypeRef.Prim(PrimKind.INT32, t.pos());
    }

    private TypeRef unsignedType(final Token t) throws IdlException
    {
        in.next();
        if (in.atKeyword("short"))
        {
            in.next();
            return new TypeRef.Prim(PrimKind.UINT16, t.pos());
        }
        if (in.atKeyword("long"))
        {
            in.next();
            if (in.atKeyword("long"))
            {
                in.next();
                return new TypeRef.Prim(PrimKind.UINT64, t.pos());
            }
            return new TypeRef.Prim(PrimKind.UINT32, t.pos());
        }
        throw TokenCursor.error(in.peek(), "expected 'short' or 'long' after 'unsigned' but found "
            + in.peek().describe());
    }

    private TypeRef stringType(final Token t) throws IdlException
    {
        in.next();
        Expr bound = null;
        if (in.accept("<"))
        {
            bound = expressions.expression();
            in.expect(">");
        }
        return new TypeRef.Str(t.text().equals("wstring"), bound, t.pos());
    }

    private TypeRef sequenceType(final Token t) throws IdlException
    {
        in.next();
        in.expect("<");
        final TypeRef element = typeSpec();
        Expr bound = null;
        if (in.accept(","))
        {
            bound = expressions.expression();
        }
        in.closeAngle();
        return new TypeRef.Seq(element, bound, t.pos());
    }
}
