package io.sirocco.idl.parse;

import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits IDL text into tokens (IDL 4.2 §7.2). A {@code #} that starts a line yields one {@link Token.Kind#DIRECTIVE}
 * token holding the rest of the line (with backslash continuations joined), for the {@link Preprocessor}.
 */
public final class Lexer
{
    private final String text;
    private final String file;
    private int index;
    private int line = 1;
    private int column = 1;
    private boolean lineStart = true;

    public Lexer(final String text, final String file)
    {
        this.text = text;
        this.file = file;
    }

    /** Lexes a directive's own text (e.g. a {@code #define} body) at a given position. */
    public static List<Token> lexFragment(final String text, final SourcePos at) throws IdlException
    {
        final Lexer lexer = new Lexer(text, at.file());
        lexer.line = at.line();
        lexer.column = at.column();
        lexer.lineStart = false;
        final List<Token> tokens = lexer.tokenize();
        tokens.removeLast();
        return tokens;
    }

    public List<Token> tokenize() throws IdlException
    {
        final List<Token> tokens = new ArrayList<>();
        while (true)
        {
            final Token t = next();
            tokens.add(t);
            if (t.kind() == Token.Kind.EOF)
            {
                return tokens;
            }
        }
    }

    private SourcePos here()
    {
        return new SourcePos(file, line, column);
    }

    private char peek(final int ahead)
    {
        final int i = index + ahead;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private char advance()
    {
        final char c = text.charAt(index++);
        if (c == '\n')
        {
            line++;
            column = 1;
            lineStart = true;
        }
        else
        {
            column++;
        }
        return c;
    }

    private boolean atEnd()
    {
        return index >= text.length();
    }

    private Token next() throws IdlException
    {
        skipSpaceAndComments();
        final SourcePos pos = here();
        if (atEnd())
        {
            return new Token(Token.Kind.EOF, "", null, false, pos);
        }
        final char c = peek(0);
        if (c == '#' && lineStart)
        {
            return directive(pos);
        }
        lineStart = false;
        if ((c == 'L') && (peek(1) == '\'' || peek(1) == '"'))
        {
            advance();
            final Token t = peek(0) == '\'' ? charLiteral(pos) : stringLiteral(pos);
            return new Token(t.kind(), t.text(), t.value(), true, pos);
        }
        if (Character.isLetter(c) || c == '_')
        {
            final StringBuilder sb = new StringBuilder();
            while (!atEnd() && (Character.isLetterOrDigit(peek(0)) || peek(0) == '_'))
            {
                sb.append(advance());
            }
            return new Token(Token.Kind.IDENT, sb.toString(), null, false, pos);
        }
        if (Character.isDigit(c) || (c == '.' && Character.isDigit(peek(1))))
        {
            return number(pos);
        }
        if (c == '\'')
        {
            return charLiteral(pos);
        }
        if (c == '"')
        {
            return stringLiteral(pos);
        }
        final String two = index + 1 < text.length() ? text.substring(index, index + 2) : "";
        if (two.equals("::") || two.equals("<<") || two.equals(">>"))
        {
            advance();
            advance();
            return new Token(Token.Kind.PUNCT, two, null, false, pos);
        }
        if ("{}()[]<>;,:=+-*/%~|^&@!".indexOf(c) >= 0)
        {
            advance();
            return new Token(Token.Kind.PUNCT, String.valueOf(c), null, false, pos);
        }
        throw new IdlException(pos, "unexpected character '" + printable(c) + "'");
    }

    private static String printable(final char c)
    {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int)c);
    }

    private void skipSpaceAndComments() throws IdlException
    {
        while (!atEnd())
        {
            final char c = peek(0);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f')
            {
                advance();
            }
            else if (c == '/' && peek(1) == '/')
            {
                while (!atEnd() && peek(0) != '\n')
                {
                    advance();
                }
            }
            else if (c == '/' && peek(1) == '*')
            {
                final SourcePos start = here();
                final boolean wasLineStart = lineStart;
                advance();
                advance();
                while (!(peek(0) == '*' && peek(1) == '/'))
                {
                    if (atEnd())
                    {
                        throw new IdlException(start, "unterminated comment");
                    }
                    advance();
                }
                advance();
                advance();
                lineStart = wasLineStart && lineStart;
            }
            else
            {
                return;
            }
        }
    }

    private Token directive(final SourcePos pos)
    {
        advance();
        final StringBuilder sb = new StringBuilder();
        while (!atEnd() && peek(0) != '\n')
        {
            if (peek(0) == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n')))
            {
                advance();
                if (peek(0) == '\r')
                {
                    advance();
                }
                advance();
                sb.append(' ');
                continue;
            }
            if (peek(0) == '/' && peek(1) == '/')
            {
                while (!atEnd() && peek(0) != '\n')
                {
                    advance();
                }
                break;
            }
            sb.append(advance());
        }
        lineStart = true;
        return new Token(Token.Kind.DIRECTIVE, sb.toString(), sb.toString(), false, pos);
    }

    private Token number(final SourcePos pos) throws IdlException
    {
        final int start = index;
        if (peek(0) == '0' && (peek(1) == 'x' || peek(1) == 'X'))
        {
            return hexNumber(pos, start);
        }
        boolean isFloat = false;
        while (!atEnd() && Character.isDigit(peek(0)))
        {
            advance();
        }
        if (peek(0) == '.' && Character.isDigit(peek(1)) || peek(0) == '.' && !Character.isLetter(peek(1)))
        {
            isFloat = true;
            advance();
            while (!atEnd() && Character.isDigit(peek(0)))
            {
                advance();
            }
        }
        if (peek(0) == 'e' || peek(0) == 'E')
        {
            isFloat = true;
            advance();
            if (peek(0) == '+' || peek(0) == '-')
            {
                advance();
            }
            if (!Character.isDigit(peek(0)))
            {
                throw new IdlException(pos, "malformed exponent in floating-point literal");
            }
            while (!atEnd() && Character.isDigit(peek(0)))
            {
                advance();
            }
        }
        final String literal = text.substring(start, index);
        if (peek(0) == 'd' || peek(0) == 'D')
        {
            throw new IdlException(pos, "fixed-point literals are not supported");
        }
        checkNoSuffix(pos);
        if (isFloat)
        {
            return new Token(Token.Kind.FLOAT, literal, Double.parseDouble(literal), false, pos);
        }
        return integer(literal, pos);
    }

    private Token hexNumber(final SourcePos pos, final int start) throws IdlException
    {
        advance();
        advance();
        final StringBuilder digits = new StringBuilder();
        while (!atEnd() && Character.digit(peek(0), 16) >= 0)
        {
            digits.append(advance());
        }
        if (digits.isEmpty())
        {
            throw new IdlException(pos, "hexadecimal literal has no digits");
        }
        checkNoSuffix(pos);
        return new Token(Token.Kind.INTEGER, text.substring(start, index), new BigInteger(digits.toString(), 16),
            false, pos);
    }

    /** A decimal literal, or an octal one when it starts with 0. */
    private static Token integer(final String literal, final SourcePos pos) throws IdlException
    {
        if (literal.length() > 1 && literal.charAt(0) == '0')
        {
            for (int i = 1; i < literal.length(); i++)
            {
                if (literal.charAt(i) > '7')
                {
                    throw new IdlException(pos, "invalid digit '" + literal.charAt(i) + "' in octal literal");
                }
            }
            return new Token(Token.Kind.INTEGER, literal, new BigInteger(literal.substring(1), 8), false, pos);
        }
        return new Token(Token.Kind.INTEGER, literal, new BigInteger(literal), false, pos);
    }

    private void checkNoSuffix(final SourcePos pos) throws IdlException
    {
        if (!atEnd() && (Character.isLetter(peek(0)) || peek(0) == '_'))
        {
            throw new IdlException(pos, "invalid suffix '" + printable(peek(0)) + "' on numeric literal");
        }
    }

    private int escape(final SourcePos pos) throws IdlException
    {
        advance();
        if (atEnd())
        {
            throw new IdlException(pos, "unterminated escape sequence");
        }
        final char e = advance();
        switch (e)
        {
            case 'n': return '\n';
            case 't': return '\t';
            case 'v': return 0x0b;
            case 'b': return '\b';
            case 'r': return '\r';
            case 'f': return '\f';
            case 'a': return 0x07;
            case '\\': return '\\';
            case '?': return '?';
            case '\'': return '\'';
            case '"': return '"';
            case 'x': return hexDigits(pos, 2, "\\x");
            case 'u': return hexDigits(pos, 4, "\\u");
            default:
                if (e >= '0' && e <= '7')
                {
                    int v = e - '0';
                    int n = 1;
                    while (n < 3 && peek(0) >= '0' && peek(0) <= '7')
                    {
                        v = v * 8 + (advance() - '0');
                        n++;
                    }
                    return v;
                }
                throw new IdlException(pos, "unknown escape sequence '\\" + printable(e) + "'");
        }
    }

    /** Reads up to {@code max} hexadecimal digits of a hex or universal-character escape; at least one is required. */
    private int hexDigits(final SourcePos pos, final int max, final String kind) throws IdlException
    {
        int v = 0;
        int n = 0;
        while (n < max && Character.digit(peek(0), 16) >= 0)
        {
            v = v * 16 + Character.digit(advance(), 16);
            n++;
        }
        if (n == 0)
        {
            throw new IdlException(pos, kind + " escape has no hexadecimal digits");
        }
        return v;
    }

    private Token charLiteral(final SourcePos pos) throws IdlException
    {
        advance();
        if (atEnd() || peek(0) == '\n' || peek(0) == '\'')
        {
            throw new IdlException(pos, "empty or unterminated character literal");
        }
        final int value = peek(0) == '\\' ? escape(pos) : advance();
        if (peek(0) != '\'')
        {
            throw new IdlException(pos, "unterminated character literal");
        }
        advance();
        return new Token(Token.Kind.CHAR, "'" + (char)value + "'", (char)value, false, pos);
    }

    private Token stringLiteral(final SourcePos pos) throws IdlException
    {
        advance();
        final StringBuilder sb = new StringBuilder();
        while (true)
        {
            if (atEnd() || peek(0) == '\n')
            {
                throw new IdlException(pos, "unterminated string literal");
            }
            if (peek(0) == '"')
            {
                advance();
                break;
            }
            if (peek(0) == '\\')
            {
                final int v = escape(pos);
                if (v == 0)
                {
                    throw new IdlException(pos, "string literal contains a NUL character");
                }
                sb.append((char)v);
            }
            else
            {
                sb.append(advance());
            }
        }
        return new Token(Token.Kind.STRING, sb.toString(), sb.toString(), false, pos);
    }
}
