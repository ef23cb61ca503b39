package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.PrimKind;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.TypeRef;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser for the DDS subset of IDL 4.2 (§7.4): modules, structs (with inheritance and forward
 * declarations), unions, enums, typedefs, constants, bitmasks, bitsets, annotations and {@code #pragma keylist}.
 * Produces the unresolved model; names and constants are resolved by {@link Resolver}.
 */
public final class Parser
{
    private static final Set<String> KEYWORDS = Set.of(
        "abstract", "any", "alias", "attribute", "bitfield", "bitmask", "bitset", "boolean", "case", "char",
        "component", "connector", "const", "consumes", "context", "custom", "default", "double", "exception",
        "emits", "enum", "eventtype", "factory", "FALSE", "finder", "fixed", "float", "getraises", "getter",
        "home", "import", "in", "inout", "interface", "local", "long", "manages", "map", "mirrorport", "module",
        "multiple", "native", "Object", "octet", "oneway", "out", "primarykey", "private", "port", "porttype",
        "provides", "public", "publishes", "raises", "readonly", "setraises", "setter", "sequence", "short",
        "string", "struct", "supports", "switch", "TRUE", "truncatable", "typedef", "typeid", "typename",
        "typeprefix", "unsigned", "union", "uses", "ValueBase", "valuetype", "void", "wchar", "wstring", "int8",
        "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64");

    private final List<Token> tokens;
    private int index;
    private final List<Decl> topLevel = new ArrayList<>();
    private final List<Decls.Keylist> keylists = new ArrayList<>();

    public Parser(final List<Token> tokens)
    {
        this.tokens = tokens;
    }

    public List<Decl> topLevel()
    {
        return topLevel;
    }

    public List<Decls.Keylist> keylists()
    {
        return keylists;
    }

    public Parser parse() throws IdlException
    {
        while (peek().kind() != Token.Kind.EOF)
        {
            definition(topLevel, "");
        }
        return this;
    }

    private Token peek()
    {
        return tokens.get(index);
    }

    private Token peek(final int ahead)
    {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    private Token next()
    {
        final Token t = tokens.get(index);
        if (t.kind() != Token.Kind.EOF)
        {
            index++;
        }
        return t;
    }

    private IdlException error(final Token at, final String message)
    {
        return new IdlException(at.pos(), message);
    }

    private Token expect(final String punct) throws IdlException
    {
        final Token t = peek();
        if (!(t.kind() == Token.Kind.PUNCT && t.text().equals(punct)))
        {
            throw error(t, "expected '" + punct + "' but found " + t.describe());
        }
        return next();
    }

    private boolean accept(final String punctOrKeyword)
    {
        if (peek().is(punctOrKeyword))
        {
            next();
            return true;
        }
        return false;
    }

    private boolean atKeyword(final String keyword)
    {
        return peek().kind() == Token.Kind.IDENT && peek().text().equals(keyword);
    }

    private void expectKeyword(final String keyword) throws IdlException
    {
        if (!atKeyword(keyword))
        {
            throw error(peek(), "expected '" + keyword + "' but found " + peek().describe());
        }
        next();
    }

    /** An identifier that is not a keyword; a leading underscore escapes a keyword (IDL 4.2 §7.2.3.1). */
    private Token identifier(final String what) throws IdlException
    {
        final Token t = peek();
        if (t.kind() != Token.Kind.IDENT)
        {
            throw error(t, "expected " + what + " but found " + t.describe());
        }
        if (KEYWORDS.contains(t.text()))
        {
            throw error(t, "'" + t.text() + "' is a keyword and cannot name " + what + " (escape it as _" + t.text()
                + ")");
        }
        next();
        final String name = t.text().startsWith("_") && t.text().length() > 1 ? t.text().substring(1) : t.text();
        return new Token(t.kind(), name, null, false, t.pos());
    }

    private void definition(final List<Decl> into, final String scope) throws IdlException
    {
        if (peek().kind() == Token.Kind.PRAGMA_KEYLIST)
        {
            pragmaKeylist(next(), scope);
            return;
        }
        final List<Annotation> annotations = annotations();
        final Token t = peek();
        if (t.kind() != Token.Kind.IDENT)
        {
            throw error(t, "expected a definition but found " + t.describe());
        }
        final Decl decl = switch (t.text())
        {
            case "module" -> module(into, scope);
            case "struct" -> struct(scope);
            case "union" -> union(scope);
            case "enum" -> enumeration(scope);
            case "typedef" -> typedef(into, scope, annotations);
            case "const" -> constant(scope);
            case "bitmask" -> bitmask(scope);
            case "bitset" -> bitset(scope);
            case "interface", "valuetype", "exception", "native", "component", "eventtype", "home", "local",
                "abstract", "custom", "typeid", "typeprefix", "import", "porttype", "connector" ->
                throw error(t, "'" + t.text() + "' definitions are not supported by the DDS data-type subset");
            default -> throw error(t, "expected a definition but found " + t.describe());
        };
        if (decl != null)
        {
            decl.annotations.addAll(0, annotations);
            into.add(decl);
        }
        else if (!annotations.isEmpty() && !t.text().equals("typedef"))
        {
            throw new IdlException(annotations.getFirst().pos(), "annotations cannot be applied to a module");
        }
        expect(";");
    }

    private void pragmaKeylist(final Token pragma, final String scope) throws IdlException
    {
        @SuppressWarnings("unchecked")
        final List<Token> args = (List<Token>)pragma.value();
        if (args.isEmpty() || args.getFirst().kind() != Token.Kind.IDENT && !args.getFirst().is("::"))
        {
            throw error(pragma, "#pragma keylist needs a type name");
        }
        final StringBuilder type = new StringBuilder();
        int i = 0;
        while (i < args.size() && (args.get(i).kind() == Token.Kind.IDENT || args.get(i).is("::")))
        {
            if (args.get(i).kind() == Token.Kind.IDENT && i > 0 && args.get(i - 1).kind() == Token.Kind.IDENT)
            {
                break;
            }
            type.append(args.get(i).text());
            i++;
        }
        final List<String> members = new ArrayList<>();
        final List<SourcePos> positions = new ArrayList<>();
        for (; i < args.size(); i++)
        {
            final Token a = args.get(i);
            if (a.kind() != Token.Kind.IDENT)
            {
                throw error(a, "#pragma keylist expects member names but found " + a.describe());
            }
            members.add(a.text());
            positions.add(a.pos());
        }
        keylists.add(new Decls.Keylist(type.toString(), members, positions, scope, pragma.pos()));
    }

    private Decl module(final List<Decl> into, final String scope) throws IdlException
    {
        next();
        final Token name = identifier("a module name");
        final Decls.Module module = new Decls.Module(name.text(), name.pos(), scope);
        expect("{");
        final String inner = module.scopedName();
        while (!peek().is("}"))
        {
            if (peek().kind() == Token.Kind.EOF)
            {
                throw error(peek(), "expected '}' to close module '" + name.text() + "' but found end of file");
            }
            definition(module.definitions, inner);
        }
        expect("}");
        into.add(module);
        return null;
    }

    private Decl struct(final String scope) throws IdlException
    {
        next();
        final Token name = identifier("a struct name");
        final Decls.Struct struct = new Decls.Struct(name.text(), name.pos(), scope);
        if (peek().is(";"))
        {
            return struct;
        }
        struct.defined = true;
        if (accept(":"))
        {
            final Token at = peek();
            struct.baseRef = new TypeRef.Named(scopedName(), at.pos());
        }
        expect("{");
        while (!peek().is("}"))
        {
            if (peek().kind() == Token.Kind.EOF)
            {
                throw error(peek(), "expected '}' to close struct '" + name.text() + "' but found end of file");
            }
            final List<Annotation> annotations = annotations();
            final TypeRef type = typeSpec();
            do
            {
                final Decls.Member member = declarator(type);
                member.annotations.addAll(annotations);
                struct.members.add(member);
            }
            while (accept(","));
            expect(";");
        }
        expect("}");
        return struct;
    }

    private Decls.Member declarator(final TypeRef type) throws IdlException
    {
        final Token name = identifier("a member name");
        final Decls.Member member = new Decls.Member(name.text(), name.pos());
        member.type = arrayDims(type, name.pos());
        return member;
    }

    private TypeRef arrayDims(final TypeRef type, final SourcePos pos) throws IdlException
    {
        if (!peek().is("["))
        {
            return type;
        }
        final List<Expr> dims = new ArrayList<>();
        while (accept("["))
        {
            dims.add(expression());
            expect("]");
        }
        return new TypeRef.Arr(type, dims, pos);
    }

    private Decl union(final String scope) throws IdlException
    {
        next();
        final Token name = identifier("a union name");
        final Decls.Union union = new Decls.Union(name.text(), name.pos(), scope);
        if (peek().is(";"))
        {
            return union;
        }
        union.defined = true;
        expectKeyword("switch");
        expect("(");
        final List<Annotation> discAnnotations = annotations();
        for (final Annotation a : discAnnotations)
        {
            if (!a.name().equals("key"))
            {
                throw new IdlException(a.pos(), "annotation @" + a.name() + " is not allowed on a union discriminator");
            }
            union.discriminatorKey = true;
        }
        union.discriminator = typeSpec();
        expect(")");
        expect("{");
        while (!peek().is("}"))
        {
            if (peek().kind() == Token.Kind.EOF)
            {
                throw error(peek(), "expected '}' to close union '" + name.text() + "' but found end of file");
            }
            final Decls.UnionCase c = caseLabels();
            final List<Annotation> annotations = annotations();
            final TypeRef type = typeSpec();
            c.member = declarator(type);
            c.member.annotations.addAll(annotations);
            expect(";");
            union.cases.add(c);
        }
        if (union.cases.isEmpty())
        {
            throw error(peek(), "union '" + name.text() + "' has no cases");
        }
        expect("}");
        return union;
    }

    /** A union case's labels: one or more {@code case X:} and at most one {@code default:}. */
    private Decls.UnionCase caseLabels() throws IdlException
    {
        final Decls.UnionCase c = new Decls.UnionCase();
        do
        {
            if (atKeyword("case"))
            {
                next();
                c.labels.add(expression());
                expect(":");
            }
            else if (atKeyword("default"))
            {
                final Token d = next();
                if (c.isDefault)
                {
                    throw error(d, "duplicate 'default' label");
                }
                c.isDefault = true;
                expect(":");
            }
            else
            {
                throw error(peek(), "expected 'case' or 'default' but found " + peek().describe());
            }
        }
        while (atKeyword("case") || atKeyword("default"));
        return c;
    }

    private Decl enumeration(final String scope) throws IdlException
    {
        next();
        final Token name = identifier("an enum name");
        final Decls.Enum e = new Decls.Enum(name.text(), name.pos(), scope);
        expect("{");
        do
        {
            if (peek().is("}") && !e.enumerators.isEmpty())
            {
                break;
            }
            final List<Annotation> annotations = annotations();
            final Token literal = identifier("an enumerator");
            final Decls.Enumerator enumerator = new Decls.Enumerator(literal.text(), literal.pos());
            enumerator.annotations.addAll(annotations);
            e.enumerators.add(enumerator);
        }
        while (accept(","));
        expect("}");
        return e;
    }

    private Decl typedef(final List<Decl> into, final String scope, final List<Annotation> annotations)
        throws IdlException
    {
        next();
        final TypeRef type = typeSpec();
        Decls.Typedef first = null;
        do
        {
            final Token name = identifier("a typedef name");
            final Decls.Typedef typedef = new Decls.Typedef(name.text(), name.pos(), scope);
            typedef.type = arrayDims(type, name.pos());
            typedef.annotations.addAll(annotations);
            if (first == null)
            {
                first = typedef;
            }
            else
            {
                into.add(typedef);
            }
        }
        while (accept(","));
        first.annotations.clear();
        return first;
    }

    private Decl constant(final String scope) throws IdlException
    {
        next();
        final TypeRef type = typeSpec();
        final Token name = identifier("a constant name");
        final Decls.Const c = new Decls.Const(name.text(), name.pos(), scope);
        c.type = type;
        expect("=");
        c.expr = expression();
        return c;
    }

    private Decl bitmask(final String scope) throws IdlException
    {
        next();
        final Token name = identifier("a bitmask name");
        final Decls.Bitmask b = new Decls.Bitmask(name.text(), name.pos(), scope);
        expect("{");
        do
        {
            final List<Annotation> annotations = annotations();
            final Token flag = identifier("a bit flag");
            final Decls.BitFlag f = new Decls.BitFlag(flag.text(), flag.pos());
            f.annotations.addAll(annotations);
            b.flags.add(f);
        }
        while (accept(","));
        expect("}");
        return b;
    }

    private Decl bitset(final String scope) throws IdlException
    {
        next();
        final Token name = identifier("a bitset name");
        final Decls.Bitset b = new Decls.Bitset(name.text(), name.pos(), scope);
        if (peek().is(":"))
        {
            throw error(peek(), "bitset inheritance is not supported");
        }
        expect("{");
        while (!peek().is("}"))
        {
            final Token kw = peek();
            expectKeyword("bitfield");
            expect("<");
            final Expr width = expression();
            TypeRef type = null;
            if (accept(","))
            {
                type = typeSpec();
            }
            expect(">");
            if (peek().is(";"))
            {
                b.fields.add(new Decls.Bitfield(null, kw.pos(), width, type));
            }
            else
            {
                do
                {
                    final Token field = identifier("a bitfield name");
                    b.fields.add(new Decls.Bitfield(field.text(), field.pos(), width, type));
                }
                while (accept(","));
            }
            expect(";");
        }
        expect("}");
        return b;
    }

    private List<Annotation> annotations() throws IdlException
    {
        final List<Annotation> annotations = new ArrayList<>();
        while (peek().is("@"))
        {
            final Token at = next();
            final Token name = peek();
            if (name.kind() != Token.Kind.IDENT)
            {
                throw error(name, "expected an annotation name after '@' but found " + name.describe());
            }
            final StringBuilder annotationName = new StringBuilder(next().text());
            while (peek().is("::") && peek(1).kind() == Token.Kind.IDENT)
            {
                next();
                annotationName.append("::").append(next().text());
            }
            final Map<String, Expr> params = new LinkedHashMap<>();
            if (accept("("))
            {
                if (!peek().is(")"))
                {
                    if (peek().kind() == Token.Kind.IDENT && peek(1).is("="))
                    {
                        do
                        {
                            final Token p = next();
                            if (p.kind() != Token.Kind.IDENT)
                            {
                                throw error(p, "expected a parameter name but found " + p.describe());
                            }
                            expect("=");
                            if (params.put(p.text(), expression()) != null)
                            {
                                throw error(p, "parameter '" + p.text() + "' given twice");
                            }
                        }
                        while (accept(","));
                    }
                    else
                    {
                        params.put("value", expression());
                    }
                }
                expect(")");
            }
            annotations.add(new Annotation(annotationName.toString(), params, at.pos()));
        }
        return annotations;
    }

    private String scopedName() throws IdlException
    {
        final StringBuilder sb = new StringBuilder();
        if (accept("::"))
        {
            sb.append("::");
        }
        sb.append(identifier("a name").text());
        while (peek().is("::"))
        {
            next();
            sb.append("::").append(identifier("a name").text());
        }
        return sb.toString();
    }

    private TypeRef typeSpec() throws IdlException
    {
        final Token t = peek();
        if (t.is("::"))
        {
            return new TypeRef.Named(scopedName(), t.pos());
        }
        if (t.kind() != Token.Kind.IDENT)
        {
            throw error(t, "expected a type but found " + t.describe());
        }
        switch (t.text())
        {
            case "boolean": next(); return new TypeRef.Prim(PrimKind.BOOLEAN, t.pos());
            case "char": next(); return new TypeRef.Prim(PrimKind.CHAR, t.pos());
            case "wchar": next(); return new TypeRef.Prim(PrimKind.WCHAR, t.pos());
            case "octet": next(); return new TypeRef.Prim(PrimKind.OCTET, t.pos());
            case "int8": next(); return new TypeRef.Prim(PrimKind.INT8, t.pos());
            case "uint8": next(); return new TypeRef.Prim(PrimKind.UINT8, t.pos());
            case "int16": next(); return new TypeRef.Prim(PrimKind.INT16, t.pos());
            case "uint16": next(); return new TypeRef.Prim(PrimKind.UINT16, t.pos());
            case "int32": next(); return new TypeRef.Prim(PrimKind.INT32, t.pos());
            case "uint32": next(); return new TypeRef.Prim(PrimKind.UINT32, t.pos());
            case "int64": next(); return new TypeRef.Prim(PrimKind.INT64, t.pos());
            case "uint64": next(); return new TypeRef.Prim(PrimKind.UINT64, t.pos());
            case "float": next(); return new TypeRef.Prim(PrimKind.FLOAT32, t.pos());
            case "double": next(); return new TypeRef.Prim(PrimKind.FLOAT64, t.pos());
            case "short": next(); return new TypeRef.Prim(PrimKind.INT16, t.pos());
            case "long":
            {
                next();
                if (atKeyword("long"))
                {
                    next();
                    return new TypeRef.Prim(PrimKind.INT64, t.pos());
                }
                if (atKeyword("double"))
                {
                    throw error(t, "'long double' is not supported");
                }
                return new TypeRef.Prim(PrimKind.INT32, t.pos());
            }
            case "unsigned":
            {
                next();
                if (atKeyword("short"))
                {
                    next();
                    return new TypeRef.Prim(PrimKind.UINT16, t.pos());
                }
                if (atKeyword("long"))
                {
                    next();
                    if (atKeyword("long"))
                    {
                        next();
                        return new TypeRef.Prim(PrimKind.UINT64, t.pos());
                    }
                    return new TypeRef.Prim(PrimKind.UINT32, t.pos());
                }
                throw error(peek(), "expected 'short' or 'long' after 'unsigned' but found " + peek().describe());
            }
            case "string", "wstring":
            {
                next();
                Expr bound = null;
                if (accept("<"))
                {
                    bound = expression();
                    expect(">");
                }
                return new TypeRef.Str(t.text().equals("wstring"), bound, t.pos());
            }
            case "sequence":
            {
                next();
                expect("<");
                final TypeRef element = typeSpec();
                Expr bound = null;
                if (accept(","))
                {
                    bound = expression();
                }
                closeAngle();
                return new TypeRef.Seq(element, bound, t.pos());
            }
            case "any", "Object", "fixed", "map", "ValueBase", "void":
                throw error(t, "type '" + t.text() + "' is not supported");
            default:
                return new TypeRef.Named(scopedName(), t.pos());
        }
    }

    /** Closes a template; {@code >>} (two nested templates closing at once) is split into two. */
    private void closeAngle() throws IdlException
    {
        final Token t = peek();
        if (t.is(">>"))
        {
            tokens.set(index, new Token(Token.Kind.PUNCT, ">", null, false,
                new SourcePos(t.pos().file(), t.pos().line(), t.pos().column() + 1)));
            return;
        }
        expect(">");
    }

    // Constant expressions (IDL 4.2 §7.4.1.4.3): | ^ & << >> + - * / % unary - + ~, literals and scoped names.
    private Expr expression() throws IdlException
    {
        return binary(0);
    }

    private static final List<List<String>> LEVELS = List.of(
        List.of("|"), List.of("^"), List.of("&"), List.of("<<", ">>"), List.of("+", "-"), List.of("*", "/", "%"));

    private Expr binary(final int level) throws IdlException
    {
        if (level == LEVELS.size())
        {
            return unary();
        }
        Expr left = binary(level + 1);
        while (peek().kind() == Token.Kind.PUNCT && LEVELS.get(level).contains(peek().text()))
        {
            final Token op = next();
            left = new Expr.Binary(op.text(), left, binary(level + 1), op.pos());
        }
        return left;
    }

    private Expr unary() throws IdlException
    {
        final Token t = peek();
        if (t.is("-") || t.is("+") || t.is("~"))
        {
            next();
            return new Expr.Unary(t.text(), unary(), t.pos());
        }
        return primary();
    }

    private Expr primary() throws IdlException
    {
        final Token t = peek();
        switch (t.kind())
        {
            case INTEGER, FLOAT, CHAR ->
            {
                next();
                return new Expr.Literal(t.value(), t.wide(), t.pos());
            }
            case STRING ->
            {
                next();
                final StringBuilder sb = new StringBuilder((String)t.value());
                while (peek().kind() == Token.Kind.STRING)
                {
                    sb.append((String)next().value());
                }
                return new Expr.Literal(sb.toString(), t.wide(), t.pos());
            }
            case PUNCT ->
            {
                if (t.is("("))
                {
                    next();
                    final Expr e = expression();
                    expect(")");
                    return e;
                }
                if (t.is("::"))
                {
                    return new Expr.Name(scopedName(), t.pos());
                }
                throw error(t, "expected an expression but found " + t.describe());
            }
            case IDENT ->
            {
                if (t.text().equals("TRUE") || t.text().equals("FALSE"))
                {
                    next();
                    return new Expr.Literal(t.text().equals("TRUE"), false, t.pos());
                }
                return new Expr.Name(scopedName(), t.pos());
            }
            default -> throw error(t, "expected an expression but found " + t.describe());
        }
    }

    static BigInteger unused()
    {
        return BigInteger.ZERO;
    }
}
