package io.sirocco.idl.parse;

import io.sirocco.idl.model.Expr;
import io.sirocco.idl.model.IdlException;

import java.util.List;

/**
 * Constant expressions (IDL 4.2 §7.4.1.4.3): {@code | ^ & << >> + - * / %}, unary {@code - + ~}, literals
 * (adjacent string literals concatenated), {@code TRUE}/{@code FALSE} and scoped names. Precedence climbs through
 * {@link #LEVELS}, loosest first.
 */
final class ExprParser
{
    private static final List<List<String>> LEVELS = List.of(
        List.of("|"), List.of("^"), List.of("&"), List.of("<<", ">>"), List.of("+", "-"), List.of("*", "/", "%"));

    private final TokenCursor in;

    ExprParser(final TokenCursor in)
    {
        this.in = in;
    }

    Expr expression() throws IdlException
    {
        return binary(0);
    }

    private Expr binary(final int level) throws IdlException
    {
        if (level == LEVELS.size())
        {
            return unary();
        }
        Expr left = binary(level + 1);
        while (in.peek().kind() == Token.Kind.PUNCT && LEVELS.get(level).contains(in.peek().text()))
        {
            final Token op = in.next();
            left = new Expr.Binary(op.text(), left, binary(level + 1), op.pos());
        }
        return left;
    }

    private Expr unary() throws IdlException
    {
        final Token t = in.peek();
        if (t.is("-") || t.is("+") || t.is("~"))
        {
            in.next();
            return new Expr.Unary(t.text(), unary(), t.pos());
        }
        return primary();
    }

    private Expr primary() throws IdlException
    {
        final Token t = in.peek();
        switch (t.kind())
        {
            case INTEGER, FLOAT, CHAR ->
            {
                in.next();
                return new Expr.Literal(t.value(), t.wide(), t.pos());
            }
            case STRING ->
            {
                return strings();
            }
            case PUNCT ->
            {
                if (t.is("("))
                {
                    in.next();
                    final Expr e = expression();
                    in.expect(")");
                    return e;
                }
                if (t.is("::"))
                {
                    return new Expr.Name(in.scopedName(), t.pos());
                }
                throw TokenCursor.error(t, "expected an expression but found " + t.describe());
            }
            case IDENT ->
            {
                if (t.text().equals("TRUE") || t.text().equals("FALSE"))
                {
                    in.next();
                    return new Expr.Literal(t.text().equals("TRUE"), false, t.pos());
                }
                return new Expr.Name(in.scopedName(), t.pos());
            }
            default -> throw TokenCursor.error(t, "expected an expression but found " + t.describe());
        }
    }

    /** Adjacent string literals form one literal. */
    private Expr strings()
    {
        final Token first = in.next();
        final StringBuilder sb = new StringBuilder((String)first.value());
        while (in.peek().kind() == Token.Kind.STRING)
        {
            sb.append((String)in.next().value());
        }
        return new Expr.Literal(sb.toString(), first.wide(), first.pos());
    }
}
