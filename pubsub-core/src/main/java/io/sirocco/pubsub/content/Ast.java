package io.sirocco.pubsub.content;

import java.util.List;

/**
 * The syntax tree of a DDS-SQL condition (OMG DDS 1.4 Annex B), as {@link Parser} builds it: immutable, untyped
 * (names are resolved against the topic type by {@link FilterCompiler}), positions kept for error messages.
 */
final class Ast
{
    private Ast()
    {
    }

    /** A boolean condition. */
    sealed interface Condition permits And, Or, Not, Compare, Between
    {
    }

    record And(Condition left, Condition right) implements Condition
    {
    }

    record Or(Condition left, Condition right) implements Condition
    {
    }

    record Not(Condition operand) implements Condition
    {
    }

    /** {@code left op right}; {@code position} is the operator's. */
    record Compare(Operand left, RelOp op, Operand right, int position) implements Condition
    {
    }

    /** {@code field [NOT] BETWEEN low AND high}, i.e. {@code low <= field <= high}. */
    record Between(Operand field, Operand low, Operand high, boolean negated, int position) implements Condition
    {
    }

    /** A value in a predicate. */
    sealed interface Operand permits Name, Literal, Param
    {
        int position();
    }

    /** A member path such as {@code a.b[2].c}; or, next to an enum field, one of its enumerators. */
    record Name(List<Step> steps, String text, int position) implements Operand
    {
        /** Whether the name is a single identifier without index (which may then be an enumerator). */
        boolean simple()
        {
            return steps.size() == 1 && steps.get(0).index() < 0;
        }
    }

    /** One member of a path, with an element index (-1 for none). */
    record Step(String member, int index)
    {
    }

    /** A literal; {@code text} is a number as written (sign included), a string's content, or TRUE/FALSE. */
    record Literal(LiteralKind kind, String text, int position) implements Operand
    {
    }

    enum LiteralKind
    {
        INTEGER,
        FLOAT,
        STRING,
        BOOLEAN
    }

    /** {@code %index}. */
    record Param(int index, int position) implements Operand
    {
    }

    enum RelOp
    {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="), LIKE("LIKE");

        final String symbol;

        RelOp(final String symbol)
        {
            this.symbol = symbol;
        }

        /** The operator seen from the other side: {@code 3 < x} is {@code x > 3}. */
        RelOp mirrored()
        {
            return switch (this)
            {
                case LT -> GT;
                case LE -> GE;
                case GT -> LT;
                case GE -> LE;
                default -> this;
            };
        }

        static RelOp of(final String symbol)
        {
            for (final RelOp op : values())
            {
                if (op.symbol.equals(symbol))
                {
                    return op;
                }
            }
            throw new IllegalArgumentException("not a relational operator: " + symbol);
        }
    }
}
