package io.sirocco.pubsub.content;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a DDS-SQL expression into tokens (OMG DDS 1.4 Annex B): identifiers and keywords, decimal and hexadecimal
 * integers, floats with optional exponent, string literals in single (or double) quotes, {@code %n} parameters,
 * relational operators, parentheses, dots and brackets. Used once per expression, when it is parsed.
 */
final class Lexer
{
    private final String text;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;

    private Lexer(final String text)
    {
        this.text = text;
    }

    static List<Token> tokens(final String expression)
    {
        final Lexer lexer = new Lexer(expression);
        lexer.run();
        return lexer.tokens;
    }

    private void run()
    {
        while (true)
        {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos)))
            {
                pos++;
            }
            if (pos >= text.length())
            {
                tokens.add(new Token(Token.Kind.END, "", pos));
                return;
            }
            tokens.add(next());
        }
    }

    private Token next()
    {
        final int start = pos;
        final char c = text.charAt(pos);
        if (Character.isLetter(c) || c == '_')
        {
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'))
            {
                pos++;
            }
            return new Token(Token.Kind.IDENT, text.substring(start, pos), start);
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1)))
        {
            return number(start);
        }
        if (c == '\'' || c == '"')
        {
            final int end = text.indexOf(c, pos + 1);
            if (end < 0)
            {
                throw new FilterSyntaxException(text, start, "unterminated string literal");
            }
            pos = end + 1;
            return new Token(Token.Kind.STRING, text.substring(start + 1, end), start);
        }
        if (c == '%')
        {
            pos++;
            while (pos < text.length() && Character.isDigit(text.charAt(pos)))
            {
                pos++;
            }
            if (pos == start + 1 || pos - start > 3)
            {
                throw new FilterSyntaxException(text, start, "a parameter is '%' and 0 to 99, not '" +
                    text.substring(start, Math.min(text.length(), Math.max(pos, start + 2))) + "'");
            }
            return new Token(Token.Kind.PARAM, text.substring(start + 1, pos), start);
        }
        return symbol(start, c);
    }

    private Token symbol(final int start, final char c)
    {
        pos++;
        final char n = pos < text.length() ? text.charAt(pos) : 0;
        return switch (c)
        {
            case '(' -> new Token(Token.Kind.LPAREN, "(", start);
            case ')' -> new Token(Token.Kind.RPAREN, ")", start);
            case '.' -> new Token(Token.Kind.DOT, ".", start);
            case '[' -> new Token(Token.Kind.LBRACKET, "[", start);
            case ']' -> new Token(Token.Kind.RBRACKET, "]", start);
            case '-' -> new Token(Token.Kind.MINUS, "-", start);
            case '+' -> new Token(Token.Kind.PLUS, "+", start);
            case '=' -> new Token(Token.Kind.RELOP, "=", start);
            case '<', '>' -> relop(start, c, n);
            case '!' ->
            {
                if (n != '=')
                {
                    throw new FilterSyntaxException(text, start, "unexpected character '!'");
                }
                pos++;
                yield new Token(Token.Kind.RELOP, "<>", start);
            }
            default -> throw new FilterSyntaxException(text, start, "unexpected character '" + c + "'");
        };
    }

    private Token relop(final int start, final char c, final char n)
    {
        if (n == '=' || c == '<' && n == '>')
        {
            pos++;
            return new Token(Token.Kind.RELOP, text.substring(start, pos), start);
        }
        return new Token(Token.Kind.RELOP, String.valueOf(c), start);
    }

    private Token number(final int start)
    {
        if (text.startsWith("0x", pos) || text.startsWith("0X", pos))
        {
            pos += 2;
            while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0)
            {
                pos++;
            }
            return new Token(Token.Kind.INTEGER, text.substring(start, pos), start);
        }
        boolean floating = false;
        digits();
        if (pos < text.length() && text.charAt(pos) == '.')
        {
            floating = true;
            pos++;
            digits();
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E'))
        {
            floating = true;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-'))
            {
                pos++;
            }
            final int exponent = pos;
            digits();
            if (pos == exponent)
            {
                throw new FilterSyntaxException(text, start, "malformed number '" + text.substring(start, pos) + "'");
            }
        }
        if (pos < text.length() && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '_'))
        {
            throw new FilterSyntaxException(text, start, "malformed number '" + text.substring(start, pos + 1) + "'");
        }
        return new Token(floating ? Token.Kind.FLOAT : Token.Kind.INTEGER, text.substring(start, pos), start);
    }

    private void digits()
    {
        while (pos < text.length() && Character.isDigit(text.charAt(pos)))
        {
            pos++;
        }
    }
}
