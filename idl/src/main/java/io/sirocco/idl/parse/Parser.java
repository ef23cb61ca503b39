package io.sirocco.idl.parse;

import io.sirocco.idl.model.Annotation;
import io.sirocco.idl.model.Decl;
import io.sirocco.idl.model.Decls;
import io.sirocco.idl.model.Diagnostic;
import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;
import io.sirocco.idl.model.TypeRef;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for the DDS subset of IDL 4.2 (§7.4): modules, structs (with inheritance and forward
 * declarations), unions, enums, typedefs, constants, bitmasks, bitsets, annotations and {@code #pragma keylist}.
 * Produces the unresolved model; names and constants are resolved by {@link Resolver}. Types, expressions and
 * annotations are parsed by {@link TypeSpecParser}, {@link ExprParser} and {@link AnnotationParser}.
 *
 * <p>Error recovery: an error inside a definition or a struct member is recorded and the parser skips to the end of
 * that construct ({@link TokenCursor#skipConstruct}) and goes on, so one run reports every syntax error of a file.
 * {@link #parse} throws them all together at the end.
 */
public final class Parser
{
    /** A grammar rule run under recovery. */
    @FunctionalInterface
    private interface Rule
    {
        void run() throws IdlException;
    }

    private final TokenCursor in;
    private final ExprParser expressions;
    private final TypeSpecParser types;
    private final AnnotationParser annotationParser;
    private final List<Decl> topLevel = new ArrayList<>();
    private final List<Decls.Keylist> keylists = new ArrayList<>();
    private final Set<Diagnostic> errors = new LinkedHashSet<>();

    public Parser(final List<Token> tokens)
    {
        this.in = new TokenCursor(tokens);
        this.expressions = new ExprParser(in);
        this.types = new TypeSpecParser(in, expressions);
        this.annotationParser = new AnnotationParser(in, expressions);
    }

    public List<Decl> topLevel()
    {
        return topLevel;
    }

    public List<Decls.Keylist> keylists()
    {
        return keylists;
    }

    /** Parses the whole token list; throws every syntax error found, in source order. */
    public Parser parse() throws IdlException
    {
        while (!in.atEof())
        {
            recovering(() -> definition(topLevel, ""));
        }
        if (!errors.isEmpty())
        {
            throw new IdlException(List.copyOf(errors));
        }
        return this;
    }

    /** Runs a rule; on an error, records it and skips the rest of the construct the rule started. */
    private void recovering(final Rule rule)
    {
        final int start = in.index();
        try
        {
            rule.run();
        }
        catch (final IdlException ex)
        {
            errors.addAll(ex.diagnostics());
            in.skipConstruct(start);
        }
    }

    private void definition(final List<Decl> into, final String scope) throws IdlException
    {
        if (in.peek().kind() == Token.Kind.PRAGMA_KEYLIST)
        {
            pragmaKeylist(in.next(), scope);
            return;
        }
        final List<Annotation> annotations = annotationParser.annotations();
        final Token t = in.peek();
        if (t.kind() != Token.Kind.IDENT)
        {
            throw TokenCursor.error(t, "expected a definition but found " + t.describe());
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
                throw TokenCursor.error(t, "'" + t.text()
                    + "' definitions are not supported by the DDS data-type subset");
            default -> throw TokenCursor.error(t, "expected a definition but found " + t.describe());
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
        in.expect(";");
    }

    private IdlException unclosed(final String what, final Token name)
    {
        return TokenCursor.error(in.peek(), "expected '}' to close " + what + " '" + name.text()
            + "' but found end of file");
    }

    private void pragmaKeylist(final Token pragma, final String scope) throws IdlException
    {
        @SuppressWarnings("unchecked")
        final List<Token> args = (List<Token>)pragma.value();
        if (args.isEmpty() || args.getFirst().kind() != Token.Kind.IDENT && !args.getFirst().is("::"))
        {
            throw TokenCursor.error(pragma, "#pragma keylist needs a type name");
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
                throw TokenCursor.error(a, "#pragma keylist expects member names but found " + a.describe());
            }
            members.add(a.text());
            positions.add(a.pos());
        }
        keylists.add(new Decls.Keylist(type.toString(), members, positions, scope, pragma.pos()));
    }

    private Decl module(final List<Decl> into, final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("a module name");
        final Decls.Module module = new Decls.Module(name.text(), name.pos(), scope);
        in.expect("{");
        final String inner = module.scopedName();
        while (!in.peek().is("}"))
        {
            if (in.peek().kind() == Token.Kind.EOF)
            {
                throw unclosed("module", name);
            }
            recovering(() -> definition(module.definitions, inner));
        }
        in.expect("}");
        into.add(module);
        return null;
    }

    private Decl struct(final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("a struct name");
        final Decls.Struct struct = new Decls.Struct(name.text(), name.pos(), scope);
        if (in.peek().is(";"))
        {
            return struct;
        }
        struct.defined = true;
        if (in.accept(":"))
        {
            final Token at = in.peek();
            struct.baseRef = new TypeRef.Named(in.scopedName(), at.pos());
        }
        in.expect("{");
        while (!in.peek().is("}"))
        {
            if (in.peek().kind() == Token.Kind.EOF)
            {
                throw unclosed("struct", name);
            }
            recovering(() -> members(struct));
        }
        in.expect("}");
        return struct;
    }

    /** One member declaration: annotations, a type and one or more declarators, up to its {@code ;}. */
    private void members(final Decls.Struct struct) throws IdlException
    {
        final List<Annotation> annotations = annotationParser.annotations();
        final TypeRef type = types.typeSpec();
        do
        {
            final Decls.Member member = declarator(type);
            member.annotations.addAll(annotations);
            struct.members.add(member);
        }
        while (in.accept(","));
        in.expect(";");
    }

    private Decls.Member declarator(final TypeRef type) throws IdlException
    {
        final Token name = in.identifier("a member name");
        final Decls.Member member = new Decls.Member(name.text(), name.pos());
        member.type = arrayDims(type, name.pos());
        return member;
    }

    private TypeRef arrayDims(final TypeRef type, final SourcePos pos) throws IdlException
    {
        if (!in.peek().is("["))
        {
            return type;
        }
        final List<Expr> dims = new ArrayList<>();
        while (in.accept("["))
        {
            dims.add(expressions.expression());
            in.expect("]");
        }
        return new TypeRef.Arr(type, dims, pos);
    }

    private Decl union(final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("a union name");
        final Decls.Union union = new Decls.Union(name.text(), name.pos(), scope);
        if (in.peek().is(";"))
        {
            return union;
        }
        union.defined = true;
        in.expectKeyword("switch");
        in.expect("(");
        final List<Annotation> discAnnotations = annotationParser.annotations();
        for (final Annotation a : discAnnotations)
        {
            if (!a.name().equals("key"))
            {
                throw new IdlException(a.pos(), "annotation @" + a.name() + " is not allowed on a union discriminator");
            }
            union.discriminatorKey = true;
        }
        union.discriminator = types.typeSpec();
        in.expect(")");
        in.expect("{");
        while (!in.peek().is("}"))
        {
            if (in.peek().kind() == Token.Kind.EOF)
            {
                throw unclosed("union", name);
            }
            final Decls.UnionCase c = caseLabels();
            final List<Annotation> annotations = annotationParser.annotations();
            final TypeRef type = types.typeSpec();
            c.member = declarator(type);
            c.member.annotations.addAll(annotations);
            in.expect(";");
            union.cases.add(c);
        }
        if (union.cases.isEmpty())
        {
            throw TokenCursor.error(in.peek(), "union '" + name.text() + "' has no cases");
        }
        in.expect("}");
        return union;
    }

    /** A union case's labels: one or more {@code case X:} and at most one {@code default:}. */
    private Decls.UnionCase caseLabels() throws IdlException
    {
        final Decls.UnionCase c = new Decls.UnionCase();
        do
        {
            if (in.atKeyword("case"))
            {
                in.next();
                c.labels.add(expressions.expression());
                in.expect(":");
            }
            else if (in.atKeyword("default"))
            {
                final Token d = in.next();
                if (c.isDefault)
                {
                    throw TokenCursor.error(d, "duplicate 'default' label");
                }
                c.isDefault = true;
                in.expect(":");
            }
            else
            {
                throw TokenCursor.error(in.peek(), "expected 'case' or 'default' but found " + in.peek().describe());
            }
        }
        while (in.atKeyword("case") || in.atKeyword("default"));
        return c;
    }

    private Decl enumeration(final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("an enum name");
        final Decls.Enum e = new Decls.Enum(name.text(), name.pos(), scope);
        in.expect("{");
        do
        {
            if (in.peek().is("}") && !e.enumerators.isEmpty())
            {
                break;
            }
            final List<Annotation> annotations = annotationParser.annotations();
            final Token literal = in.identifier("an enumerator");
            final Decls.Enumerator enumerator = new Decls.Enumerator(literal.text(), literal.pos());
            enumerator.annotations.addAll(annotations);
            e.enumerators.add(enumerator);
        }
        while (in.accept(","));
        in.expect("}");
        return e;
    }

    private Decl typedef(final List<Decl> into, final String scope, final List<Annotation> annotations)
        throws IdlException
    {
        in.next();
        final TypeRef type = types.typeSpec();
        Decls.Typedef first = null;
        do
        {
            final Token name = in.identifier("a typedef name");
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
        while (in.accept(","));
        first.annotations.clear();
        return first;
    }

    private Decl constant(final String scope) throws IdlException
    {
        in.next();
        final TypeRef type = types.typeSpec();
        final Token name = in.identifier("a constant name");
        final Decls.Const c = new Decls.Const(name.text(), name.pos(), scope);
        c.type = type;
        in.expect("=");
        c.expr = expressions.expression();
        return c;
    }

    private Decl bitmask(final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("a bitmask name");
        final Decls.Bitmask b = new Decls.Bitmask(name.text(), name.pos(), scope);
        in.expect("{");
        do
        {
            final List<Annotation> annotations = annotationParser.annotations();
            final Token flag = in.identifier("a bit flag");
            final Decls.BitFlag f = new Decls.BitFlag(flag.text(), flag.pos());
            f.annotations.addAll(annotations);
            b.flags.add(f);
        }
        while (in.accept(","));
        in.expect("}");
        return b;
    }

    private Decl bitset(final String scope) throws IdlException
    {
        in.next();
        final Token name = in.identifier("a bitset name");
        final Decls.Bitset b = new Decls.Bitset(name.text(), name.pos(), scope);
        if (in.peek().is(":"))
        {
            throw TokenCursor.error(in.peek(), "bitset inheritance is not supported");
        }
        in.expect("{");
        while (!in.peek().is("}"))
        {
            final Token kw = in.peek();
            in.expectKeyword("bitfield");
            in.expect("<");
            final Expr width = expressions.expression();
            TypeRef type = null;
            if (in.accept(","))
            {
                type = types.typeSpec();
            }
            in.expect(">");
            if (in.peek().is(";"))
            {
                b.fields.add(new Decls.Bitfield(null, kw.pos(), width, type));
            }
            else
            {
                do
                {
                    final Token field = in.identifier("a bitfield name");
                    b.fields.add(new Decls.Bitfield(field.text(), field.pos(), width, type));
                }
                while (in.accept(","));
            }
            in.expect(";");
        }
        in.expect("}");
        return b;
    }

}
