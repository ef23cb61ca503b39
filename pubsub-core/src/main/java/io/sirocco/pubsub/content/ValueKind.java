package io.sirocco.pubsub.content;

/**
 * How a member's values compare in DDS-SQL. Integral members of every width (IDL octet, short, long, long long and
 * their unsigned forms, which the Java mapping holds in the signed type of the same width) compare as Java
 * {@code long}; float and double as {@code double} (an integral member compared with a float operand too); chars
 * by code; strings lexicographically by UTF-16 code units; enums by declaration order; booleans FALSE &lt; TRUE.
 */
enum ValueKind
{
    INTEGRAL, FLOATING, CHAR, STRING, BOOLEAN, ENUM, OTHER;

    static ValueKind of(final Class<?> type)
    {
        if (type == long.class || type == int.class || type == short.class || type == byte.class ||
            type == Long.class || type == Integer.class || type == Short.class || type == Byte.class)
        {
            return INTEGRAL;
        }
        if (type == double.class || type == float.class || type == Double.class || type == Float.class)
        {
            return FLOATING;
        }
        if (type == char.class || type == Character.class)
        {
            return CHAR;
        }
        if (type == boolean.class || type == Boolean.class)
        {
            return BOOLEAN;
        }
        if (type == String.class)
        {
            return STRING;
        }
        return type.isEnum() ? ENUM : OTHER;
    }

    /** Whether values are read as a primitive long (integral and char members). */
    boolean asLong()
    {
        return this == INTEGRAL || this == CHAR;
    }
}
