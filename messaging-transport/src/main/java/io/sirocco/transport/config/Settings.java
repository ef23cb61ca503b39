package io.sirocco.transport.config;

import java.util.Locale;
import java.util.function.Function;

/**
 * Reads a setting: the system property {@code key}, else the environment variable
 * {@link #environmentName(String) SIROCCO_...}, else the default. A value that does not parse is an
 * {@link IllegalArgumentException} naming the key, the source and the value; it is never silently replaced by the
 * default. Stateless and thread-safe; the typed configuration classes call it once per setting when they are built.
 */
public final class Settings
{
    public static final String PREFIX = "sirocco.";
    public static final String ENVIRONMENT_PREFIX = "SIROCCO_";

    private Settings()
    {
    }

    /** {@code sirocco.transport.ringBufferBytes} and {@code sirocco.transport.ring.buffer.bytes} both give
     * {@code SIROCCO_TRANSPORT_RING_BUFFER_BYTES}. */
    public static String environmentName(final String key)
    {
        final StringBuilder name = new StringBuilder(key.length() + 8);
        for (int i = 0; i < key.length(); i++)
        {
            final char c = key.charAt(i);
            if (c == '.' || c == '-')
            {
                name.append('_');
            }
            else if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(key.charAt(i - 1)))
            {
                name.append('_').append(c);
            }
            else
            {
                name.append(Character.toUpperCase(c));
            }
        }
        return name.toString().toUpperCase(Locale.ROOT);
    }

    /** The raw value, or null when neither the property nor the environment variable is set. */
    public static String raw(final String key)
    {
        final String property = System.getProperty(key);
        return property != null ? property : System.getenv(environmentName(key));
    }

    public static String string(final String key, final String defaultValue)
    {
        final String value = raw(key);
        return value == null ? defaultValue : value.trim();
    }

    public static int intValue(final String key, final int defaultValue)
    {
        return parse(key, defaultValue, "an integer", Integer::valueOf);
    }

    public static long longValue(final String key, final long defaultValue)
    {
        return parse(key, defaultValue, "an integer", Long::valueOf);
    }

    public static double doubleValue(final String key, final double defaultValue)
    {
        return parse(key, defaultValue, "a number", Double::valueOf);
    }

    public static boolean booleanValue(final String key, final boolean defaultValue)
    {
        return parse(key, defaultValue, "true or false", Settings::strictBoolean);
    }

    private static Boolean strictBoolean(final String text)
    {
        if ("true".equalsIgnoreCase(text))
        {
            return Boolean.TRUE;
        }
        if ("false".equalsIgnoreCase(text))
        {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException(text);
    }

    private static <T> T parse(final String key, final T defaultValue, final String expected,
        final Function<String, T> parser)
    {
        final String value = raw(key);
        if (value == null)
        {
            return defaultValue;
        }
        try
        {
            return parser.apply(value.trim());
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException(source(key) + " is '" + value + "', not " + expected, e);
        }
    }

    private static String source(final String key)
    {
        return System.getProperty(key) != null
            ? "system property " + key
            : "environment variable " + environmentName(key);
    }
}
