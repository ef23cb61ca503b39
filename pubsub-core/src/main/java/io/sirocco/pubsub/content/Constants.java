package io.sirocco.pubsub.content;

import java.lang.reflect.Method;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * Turns the constant side of a predicate (a literal, a {@code %n} parameter or an enumerator) into a value of the
 * member's {@link ValueKind}, once at compile time. Parameters are strings, as DDS gives them; a string parameter
 * may be quoted ({@code 'red'}) or bare. A constant that does not fit the member is an error naming both.
 */
final class Constants
{
    /**
     * A converted constant.
     *
     * @param floating whether it is a double ({@code d}); else an integral/char ({@code l}) or an object.
     */
    record Value(long l, double d, boolean floating, Comparable<?> object)
    {
    }

    private final String expression;
    private final List<String> parameters;

    Constants(final String expression, final List<String> parameters)
    {
        this.expression = expression;
        this.parameters = parameters;
    }

    Value of(final Ast.Operand operand, final FieldAccess field)
    {
        final ValueKind kind = ValueKind.of(field.leafType());
        final String text;
        final Ast.LiteralKind literal;
        switch (operand)
        {
            case Ast.Literal l ->
            {
                text = l.text();
                literal = l.kind();
            }
            case Ast.Param p ->
            {
                // a string parameter is taken as given (quotes aside); other kinds ignore surrounding blanks
                text = kind == ValueKind.STRING || kind == ValueKind.CHAR ? parameter(p) : parameter(p).trim();
                literal = null;
            }
            case Ast.Name n ->
            {
                text = n.text();
                literal = null;
                if (kind != ValueKind.ENUM)
                {
                    throw mismatch(operand, field, "the name " + n.text());
                }
            }
        }
        return switch (kind)
        {
            case INTEGRAL -> integral(operand, field, text, literal);
            case FLOATING -> floating(operand, field, text, literal);
            case CHAR -> character(operand, field, text, literal);
            case STRING -> new Value(0, 0, false, string(operand, field, text, literal));
            case BOOLEAN -> bool(operand, field, text, literal);
            case ENUM -> new Value(0, 0, false, enumerator(operand, field, text, literal));
            case OTHER -> throw new FilterSyntaxException(expression, operand.position(), "member '" + field.path() +
                "' is a " + field.leafType().getName() + ", not a primitive, string or enum, so it cannot be compared");
        };
    }

    private String parameter(final Ast.Param p)
    {
        if (p.index() >= parameters.size())
        {
            throw new FilterSyntaxException(expression, p.position(), "parameter %" + p.index() + " is used but " +
                parameters.size() + " parameter(s) were given");
        }
        final String value = parameters.get(p.index());
        if (value == null)
        {
            throw new FilterSyntaxException(expression, p.position(), "parameter %" + p.index() + " is null");
        }
        return value;
    }

    private Value integral(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        if (literal == Ast.LiteralKind.FLOAT)
        {
            return new Value(0, Double.parseDouble(text), true, null);
        }
        if (literal != null && literal != Ast.LiteralKind.INTEGER)
        {
            throw mismatch(operand, field, describe(text, literal));
        }
        final String bare = unquoted(text);
        try
        {
            final BigInteger value = parseInteger(bare);
            if (value.bitLength() > 63)
            {
                throw new FilterSyntaxException(expression, operand.position(), "integer " + bare +
                    " does not fit in 64 bits");
            }
            return new Value(value.longValue(), 0, false, null);
        }
        catch (final NumberFormatException ex)
        {
            if (literal == null)
            {
                return new Value(0, parseDouble(operand, field, bare), true, null);
            }
            throw mismatch(operand, field, text);
        }
    }

    private static BigInteger parseInteger(final String text)
    {
        final boolean negative = text.startsWith("-");
        final String digits = negative || text.startsWith("+") ? text.substring(1) : text;
        final BigInteger magnitude = digits.startsWith("0x") || digits.startsWith("0X") ?
            new BigInteger(digits.substring(2), 16) : new BigInteger(digits);
        return negative ? magnitude.negate() : magnitude;
    }

    private Value floating(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        if (literal == Ast.LiteralKind.INTEGER)
        {
            return new Value(0, parseInteger(text).doubleValue(), true, null);
        }
        if (literal != null && literal != Ast.LiteralKind.FLOAT)
        {
            throw mismatch(operand, field, describe(text, literal));
        }
        return new Value(0, parseDouble(operand, field, unquoted(text)), true, null);
    }

    private double parseDouble(final Ast.Operand operand, final FieldAccess field, final String text)
    {
        try
        {
            if (text.startsWith("0x") || text.startsWith("0X") || text.startsWith("-0x") || text.startsWith("-0X"))
            {
                return parseInteger(text).doubleValue();
            }
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw mismatch(operand, field, "'" + text + "'");
        }
    }

    private Value character(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        final String value = literal == null ? unquoted(text) : text;
        if (literal != null && literal != Ast.LiteralKind.STRING || value.length() != 1)
        {
            throw mismatch(operand, field, describe(text, literal) + " (a char compares with one character)");
        }
        return new Value(value.charAt(0), 0, false, null);
    }

    private String string(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        if (literal != null && literal != Ast.LiteralKind.STRING)
        {
            throw mismatch(operand, field, describe(text, literal));
        }
        return literal == null ? unquoted(text) : text;
    }

    private Value bool(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        final String value = unquoted(text).toUpperCase(Locale.ROOT);
        if (literal != null && literal != Ast.LiteralKind.BOOLEAN || !value.equals("TRUE") && !value.equals("FALSE"))
        {
            throw mismatch(operand, field, describe(text, literal));
        }
        return new Value(0, 0, false, Boolean.valueOf(value.equals("TRUE")));
    }

    private Enum<?> enumerator(final Ast.Operand operand, final FieldAccess field, final String text,
        final Ast.LiteralKind literal)
    {
        final Object[] constants = field.leafType().getEnumConstants();
        final String value = literal == Ast.LiteralKind.STRING ? text : unquoted(text);
        for (final Object constant : constants)
        {
            if (((Enum<?>)constant).name().equals(value))
            {
                return (Enum<?>)constant;
            }
        }
        if (literal == null || literal == Ast.LiteralKind.INTEGER)
        {
            try
            {
                final long wanted = parseInteger(value).longValue();
                for (final Object constant : constants)
                {
                    if (idlValue((Enum<?>)constant) == wanted)
                    {
                        return (Enum<?>)constant;
                    }
                }
            }
            catch (final NumberFormatException ex)
            {
                // not a number either: reported below
            }
        }
        throw mismatch(operand, field, describe(text, literal) + " (not an enumerator of " +
            field.leafType().getName() + ")");
    }

    /** The IDL value of a generated enumerator ({@code value()}), else its ordinal. */
    private static long idlValue(final Enum<?> constant)
    {
        try
        {
            final Method value = constant.getDeclaringClass().getMethod("value");
            return ((Number)value.invoke(constant)).longValue();
        }
        catch (final ReflectiveOperationException | ClassCastException ex)
        {
            return constant.ordinal();
        }
    }

    private static String unquoted(final String text)
    {
        if (text.length() >= 2 && (text.startsWith("'") && text.endsWith("'") ||
            text.startsWith("\"") && text.endsWith("\"")))
        {
            return text.substring(1, text.length() - 1);
        }
        return text;
    }

    private static String describe(final String text, final Ast.LiteralKind literal)
    {
        if (literal == null)
        {
            return "'" + text + "'";
        }
        return switch (literal)
        {
            case STRING -> "the string '" + text + "'";
            case BOOLEAN -> text;
            default -> "the number " + text;
        };
    }

    private FilterSyntaxException mismatch(final Ast.Operand operand, final FieldAccess field, final String what)
    {
        final String shown = operand instanceof Ast.Param p ? "parameter %" + p.index() + " = " + what : what;
        return new FilterSyntaxException(expression, operand.position(), "member '" + field.path() + "' (" +
            field.leafType().getSimpleName() + ") cannot be compared with " + shown);
    }
}
