package io.sirocco.idl.parse;

import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.util.List;
import java.util.Set;

/**
 * The parser's position in the token list: look-ahead, consumption, the checks every rule shares ({@link #expect},
 * {@link #identifier}, {@link #scopedName}) and the panic-mode skip that lets the parser continue after an error.
 * Single-threaded: one instance per compilation.
 */
final class TokenCursor
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

    TokenCursor(final List<Token> tokens)
    {
        this.tokens = tokens;
    }

    int index()
    {
        return index;
    }

    Token peek()
    {
        return tokens.get(index);
    }

    Token peek(final int ahead)
    {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    boolean atEof()
    {
        return peek().kind() == Token.Kind.EOF;
    }

    Token next()
    {
        final Token t = tokens.get(index);
        if (t.kind() != Token.Kind.EOF)
        {
            index++;
        }
        return t;
    }

    static IdlException error(final Token at, final String message)
    {
        return new IdlException(at.pos(), message);
    }

    Token expect(final String punct) throws IdlException
    {
        final Token t = peek();
        if (!(t.kind() == Token.Kind.PUNCT && t.text().equals(punct)))
        {
            throw error(t, "expected '" + punct + "' but found " + t.describe());
        }
        return next();
    }

    boolean accept(final String punctOrKeyword)
    {
        if (peek().is(punctOrKeyword))
        {
            next();
            return true;
        }
        return false;
    }

    boolean atKeyword(final String keyword)
    {
        return peek().kind() == Token.Kind.IDENT && peek().text().equals(keyword);
    }

    void expectKeyword(final String keyword) throws IdlException
    {
        if (!atKeyword(keyword))
        {
            throw error(peek(), "expected '" + keyword + "' but found " + peek().describe());
        }
        next();
    }

    /** An identifier that is not a keyword; a leading underscore escapes a keyword (IDL 4.2 §7.2.3.1). */
    Token identifier(final String what) throws IdlException
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

    String scopedName() throws IdlException
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

    /** Closes a template; {@code >>} (two nested templates closing at once) is split into two. */
    void closeAngle() throws IdlException
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

    /**
     * Panic-mode recovery after an error in the construct that began at token {@code start}: skips to the end of
     * that construct, i.e. past the next {@code ;} outside the braces the construct opened, or up to (not past) a
     * {@code }} that closes an enclosing scope, or to the end of file. Always consumes at least one token unless at
     * the end of file, so that a caller looping over constructs makes progress.
     */
    void skipConstruct(final int start)
    {
        int depth = 0;
        for (int i = start; i < index; i++)
        {
            depth += braceDelta(tokens.get(i));
        }
        while (!atEof())
        {
            final Token t = peek();
            final int delta = braceDelta(t);
            if (depth + delta < 0)
            {
                break;
            }
            depth += delta;
            next();
            if (depth == 0 && t.is(";"))
            {
                break;
            }
        }
        if (index == start && !atEof())
        {
            next();
        }
    }

    private static int braceDelta(final Token t)
    {
        if (t.kind() != Token.Kind.PUNCT)
        {
            return 0;
        }
        return t.text().equals("{") ? 1 : t.text().equals("}") ? -1 : 0;
    }
}
