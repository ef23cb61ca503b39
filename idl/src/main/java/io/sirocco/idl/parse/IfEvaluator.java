package io.sirocco.idl.parse;

import io.sirocco.idl.model.IdlException;
import io.sirocco.idl.model.SourcePos;

import java.math.BigInteger;
import java.util.List;

/**
 * The value of a {@code #if} expression once {@code defined(X)} and macros are replaced: integers and the C
 * operators by precedence, and parentheses. Recursive descent over one token list; one instance per expression.
 */
final class IfEvaluator
{
    private static final List<List<String>> LEVELS = List.of(
        List.of("||"), List.of("&&"), List.of("|"), List.of("^"), List.of("&"), List.of("==", "!="),
        List.of("<", ">", "<=", ">="), List.of("<<", ">>"), List.of("+", "-"), List.of("*", "/", "%"));
    private final List<Token> tokens;
    private final SourcePos pos;
    private int i;

    IfEvaluator(final List<Token> tokens, final SourcePos pos)
    {
        this.tokens = tokens;
        this.pos = pos;
    }

    private String op()
    {
        if (i >= tokens.size() || tokens.get(i).kind() != Token.Kind.PUNCT)
        {
            return null;
        }
        final String a = tokens.get(i).text();
        if (i + 1 < tokens.size() && tokens.get(i + 1).kind() == Token.Kind.PUNCT)
        {
            final String two = a + tokens.get(i + 1).text();
            if (List.of("||", "&&", "==", "!=", "<=", ">=").contains(two))
            {
                return two;
            }
        }
        return a;
    }

    long parse(final int level) throws IdlException
    {
        if (level == LEVELS.size())
        {
            return unary();
        }
        long left = parse(level + 1);
        while (true)
        {
            final String op = op();
            if (op == null || !LEVELS.get(level).contains(op))
            {
                return left;
            }
            i += op.length() == 2 && !op.equals("<<") && !op.equals(">>") ? 2 : 1;
            final long right = parse(level + 1);
            left = switch (op)
            {
                case "||" -> (left != 0 || right != 0) ? 1 : 0;
                case "&&" -> (left != 0 && right != 0) ? 1 : 0;
                case "|" -> left | right;
                case "^" -> left ^ right;
                case "&" -> left & right;
                case "==" -> left == right ? 1 : 0;
                case "!=" -> left != right ? 1 : 0;
                case "<" -> left < right ? 1 : 0;
                case ">" -> left > right ? 1 : 0;
                case "<=" -> left <= right ? 1 : 0;
                case ">=" -> left >= right ? 1 : 0;
                case "<<" -> left << (right & 63);
                case ">>" -> left >> (right & 63);
                case "+" -> left + right;
                case "-" -> left - right;
                case "*" -> left * right;
                default ->
                {
                    if (right == 0)
                    {
                        throw new IdlException(pos, "division by zero in #if");
                    }
                    yield op.equals("/") ? left / right : left % right;
                }
            };
        }
    }

    private long unary() throws IdlException
    {
        if (i >= tokens.size())
        {
            throw new IdlException(pos, "#if expression ends early");
        }
        final Token t = tokens.get(i++);
        if (t.is("!"))
        {
            return unary() == 0 ? 1 : 0;
        }
        if (t.is("-"))
        {
            return -unary();
        }
        if (t.is("+"))
        {
            return unary();
        }
        if (t.is("~"))
        {
            return ~unary();
        }
        if (t.is("("))
        {
            final long v = parse(0);
            if (i >= tokens.size() || !tokens.get(i).is(")"))
            {
                throw new IdlException(t.pos(), "missing ')' in #if");
            }
            i++;
            return v;
        }
        if (t.kind() == Token.Kind.INTEGER)
        {
            return ((BigInteger)t.value()).longValue();
        }
        if (t.kind() == Token.Kind.IDENT)
        {
            return 0;
        }
        throw new IdlException(t.pos(), "unexpected " + t.describe() + " in #if");
    }

    void expectEnd() throws IdlException
    {
        if (i < tokens.size())
        {
            throw new IdlException(tokens.get(i).pos(), "unexpected " + tokens.get(i).describe() + " in #if");
        }
    }
}
