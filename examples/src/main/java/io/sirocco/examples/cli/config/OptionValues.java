package io.sirocco.examples.cli.config;

import java.util.List;
import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters that check an option's value while the command line is parsed, before a command starts anything: a bad
 * value is a usage error (one line, exit 2) instead of a stack trace or a run that fails half a minute later. Each is
 * named for the values it accepts; use it as {@code @Option(converter = OptionValues.X.class)}.
 */
public final class OptionValues
{
    /** The largest payload the benchmark commands send: beyond it the per-sender bulk region would not fit. */
    public static final int MAX_PAYLOAD_BYTES = 16 << 20;
    /** DDS domain ids (as the participant factory accepts them). */
    public static final int MAX_DOMAIN_ID = 232;

    private OptionValues()
    {
    }

    private static long parse(final String value)
    {
        try
        {
            return Long.parseLong(value.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new TypeConversionException("'" + value + "' is not a whole number");
        }
    }

    private static long inRange(final String value, final long min, final long max, final String what)
    {
        final long v = parse(value);
        if (v < min || v > max)
        {
            throw new TypeConversionException(value + " is out of range: " + what);
        }
        return v;
    }

    /** 1 or more (seconds to run, entries to log, members, threads). */
    public static final class Positive implements ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return (int)inRange(value, 1, Integer.MAX_VALUE, "must be at least 1");
        }
    }

    /** 1 or more, as a long. */
    public static final class PositiveLong implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return inRange(value, 1, Long.MAX_VALUE, "must be at least 1");
        }
    }

    /** 0 or more (a rate where 0 means "as fast as possible", seconds of warm-up). */
    public static final class NonNegative implements ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return (int)inRange(value, 0, Integer.MAX_VALUE, "must be 0 or more");
        }
    }

    /** 0 or more, as a long. */
    public static final class NonNegativeLong implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return inRange(value, 0, Long.MAX_VALUE, "must be 0 or more");
        }
    }

    /** A payload size in bytes: 0 to {@link #MAX_PAYLOAD_BYTES}. */
    public static final class PayloadBytes implements ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return (int)inRange(value, 0, MAX_PAYLOAD_BYTES, "a payload is 0 to " + MAX_PAYLOAD_BYTES + " bytes");
        }
    }

    /** A DDS domain id: 0 to {@link #MAX_DOMAIN_ID}. */
    public static final class DomainId implements ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return (int)inRange(value, 0, MAX_DOMAIN_ID, "a DDS domain id is 0 to " + MAX_DOMAIN_ID);
        }
    }

    /** The transports of the DDS commands ({@code sirocco.dds.transport}). */
    public static final class DdsTransport implements ITypeConverter<String>
    {
        static final List<String> NAMES = List.of("shm", "tcp", "mixed", "local", "auto");

        @Override
        public String convert(final String value)
        {
            return oneOf(value, NAMES);
        }
    }

    /** The transports of {@code transport-bench}. */
    public static final class TransportBenchTransport implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            return oneOf(value, List.of("tcp", "loopback"));
        }
    }

    /** The row transports of {@code mcast-bench}. */
    public static final class McastTransport implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            return oneOf(value, List.of("shm", "tcp", "local", "mixed"));
        }
    }

    static String oneOf(final String value, final List<String> names)
    {
        final String v = value.strip().toLowerCase(Locale.ROOT);
        if (!names.contains(v))
        {
            throw new TypeConversionException("'" + value + "' is not one of " + String.join(", ", names));
        }
        return v;
    }
}
