package io.sirocco.pubsub.content;

import java.util.ArrayList;
import java.util.List;

/**
 * A recursive-descent parser for the DDS-SQL filter grammar of OMG DDS 1.4 Annex B:
 * <pre>
 * Condition  ::= OrCond END
 * OrCond     ::= AndCond ( OR AndCond )*
 * AndCond    ::= NotCond ( AND NotCond )*
 * NotCond    ::= NOT NotCond | '(' OrCond ')' | Predicate
 * Predicate  ::= Operand RelOp Operand | Operand [NOT] BETWEEN Operand AND Operand
 * RelOp      ::= '=' | '&lt;&gt;' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=' | LIKE
 * Operand    ::= FieldName | [+|-] INTEGER | [+|-] FLOAT | STRING | TRUE | FALSE | %n | ENUMERATOR
 * FieldName  ::= IDENT [ '[' INTEGER ']' ] ( '.' IDENT [ '[' INTEGER ']' ] )*
 * </pre>
 * Keywords are case-insensitive. An error names the position and the token.
 */
final class Parser
{
    private final String expression;
    private final List<Token> tokens;
    private int next;

    private Parser(final String expression)
    {
        this.expression = expression;
        this.tokens = Lexer.tokens(expression);
    }

    /** Parses a whole condition. */
    static Ast.Condition parse(final String expression)
    {
        if (expression == null || expression.isBlank())
        {
            throw new FilterSyntaxException(String.valueOf(expression), -1, "empty expression");
        }
        final Parser parser = new Parser(expression);
        final Ast.Condition condition = parser.or();
        parser.expectEnd();
        return condition;
    }

    private void expectEnd()
    {
        final Token token = peek();
        if (token.kind() != Token.Kind.END)
        {
            throw error(token, "expected AND, OR or the end");
        }
    }

    private Ast.Condition or()
    {
        Ast.Condition left = and();
        while (peek().isKeyword("OR"))
        {
            next++;
            left = new Ast.Or(left, and());
        }
        return left;
    }

    private Ast.Condition and()
    {
        Ast.Condition left = not();
        while (peek().isKeyword("AND"))
        {
            next++;
            left = new Ast.And(left, not());
        }
        return left;
    }

    private Ast.Condition not()
    {
        final Token token = peek();
        if (token.isKeyword("NOT"))
        {
            next++;
            return new Ast.Not(not());
        }
        if (token.kind() == Token.Kind.LPAREN)
        {
            next++;
            final Ast.Condition inner = or();
            final Token close = peek();
            if (close.kind() != Token.Kind.RPAREN)
            {
                throw error(close, "expected ')' closing the '(' at position " + token.position() + ",");
            }
            next++;
            return inner;
        }
        return predicate();
    }

    private Ast.Condition predicate()
    {
        final Ast.Operand left = operand();
        final Token token = peek();
        if (token.isKeyword("BETWEEN") || token.isKeyword("NOT") && tokens.get(next + 1).isKeyword("BETWEEN"))
        {
            final boolean negated = token.isKeyword("NOT");
            next += negated ? 2 : 1;
            final Ast.Operand low = operand();
            if (!peek().isKeyword("AND"))
            {
                throw error(peek(), "expected AND in BETWEEN");
            }
            next++;
            return new Ast.Between(left, low, operand(), negated, token.position());
        }
        final Ast.RelOp op;
        if (token.kind() == Token.Kind.RELOP)
        {
            op = Ast.RelOp.of(token.text());
        }
        else if (token.isKeyword("LIKE"))
        {
            op = Ast.RelOp.LIKE;
        }
        else
        {
            throw error(token, "expected a comparison operator, BETWEEN or LIKE");
        }
        next++;
        return new Ast.Compare(left, op, operand(), token.position());
    }

    private Ast.Operand operand()
    {
        final Token token = take();
        return switch (token.kind())
        {
            case INTEGER -> new Ast.Literal(Ast.LiteralKind.INTEGER, token.text(), token.position());
            case FLOAT -> new Ast.Literal(Ast.LiteralKind.FLOAT, token.text(), token.position());
            case STRING -> new Ast.Literal(Ast.LiteralKind.STRING, token.text(), token.position());
            case PARAM -> new Ast.Param(Integer.parseInt(token.text()), token.position());
            case MINUS, PLUS -> signed(token);
            case IDENT -> identifier(token);
            default -> throw error(token, "expected a field name, a literal or a parameter");
        };
    }

    private Ast.Operand signed(final Token sign)
    {
        final Token number = take();
        if (number.kind() != Token.Kind.INTEGER && number.kind() != Token.Kind.FLOAT)
        {
            throw error(number, "expected a number after '" + sign.text() + "'");
        }
        final String text = sign.kind() == Token.Kind.MINUS ? "-" + number.text() : number.text();
        return new Ast.Literal(number.kind() == Token.Kind.INTEGER ? Ast.LiteralKind.INTEGER : Ast.LiteralKind.FLOAT,
            text, sign.position());
    }

    private Ast.Operand identifier(final Token first)
    {
        if (first.isKeyword("TRUE") || first.isKeyword("FALSE"))
        {
            return new Ast.Literal(Ast.LiteralKind.BOOLEAN, first.text().toUpperCase(java.util.Locale.ROOT),
                first.position());
        }
        for (final String keyword : new String[] {"AND", "OR", "NOT", "BETWEEN", "LIKE"})
        {
            if (first.isKeyword(keyword))
            {
                throw error(first, "expected a field name, a literal or a parameter");
            }
        }
        final List<Ast.Step> steps = new ArrayList<>();
        Token member = first;
        while (true)
        {
            steps.add(new Ast.Step(member.text(), index()));
            if (peek().kind() != Token.Kind.DOT)
            {
                break;
            }
            next++;
            member = take();
            if (member.kind() != Token.Kind.IDENT)
            {
                throw error(member, "expected a member name after '.'");
            }
        }
        final int end = tokens.get(next - 1).position() + tokens.get(next - 1).text().length();
        return new Ast.Name(List.copyOf(steps), expression.substring(first.position(), end), first.position());
    }

    private int index()
    {
        if (peek().kind() != Token.Kind.LBRACKET)
        {
            return -1;
        }
        next++;
        final Token number = take();
        if (number.kind() != Token.Kind.INTEGER || number.text().startsWith("0x") || number.text().startsWith("0X"))
        {
            throw error(number, "expected a decimal element index");
        }
        if (take().kind() != Token.Kind.RBRACKET)
        {
            throw error(tokens.get(next - 1), "expected ']'");
        }
        try
        {
            return Integer.parseInt(number.text());
        }
        catch (final NumberFormatException ex)
        {
            throw error(number, "element index out of range");
        }
    }

    private Token peek()
    {
        return tokens.get(next);
    }

    private Token take()
    {
        final Token token = tokens.get(next);
        if (token.kind() != Token.Kind.END)
        {
            next++;
        }
        return token;
    }

    private FilterSyntaxException error(final Token token, final String reason)
    {
        return new FilterSyntaxException(expression, token.position(), reason + " but found " + token.shown());
    }
}
