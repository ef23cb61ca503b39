package io.sirocco.pubsub.content;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A DDS-SQL filter (OMG DDS 1.4 Annex B) compiled for one topic type: the expression is parsed once, and each set of
 * parameter values compiles to an evaluator over the deserialized sample and, when the type has a generated flat
 * view and every member the filter reads is in it, a second one over the serialized bytes
 * ({@link #matchSerialized}), so that rejected samples need not be deserialized.
 *
 * <p>Concurrency: the compiled state is one immutable object behind a volatile reference, shared with the filter's
 * {@link #copy copies}; {@link #setParameters} (any thread) compiles a new one and publishes it with that volatile
 * write, and {@link #matches} (any thread) reads it once per sample. {@link #matchSerialized} uses one flyweight:
 * call it from one thread at a time (a
 * reader's delivery, under the reader's lock), or give each thread its {@link #copy}.
 *
 * @param <T> the topic type.
 */
public final class ContentFilter<T>
{
    /** {@link #matchSerialized}: the sample passes. */
    public static final int MATCH = 1;
    /** {@link #matchSerialized}: the sample is filtered out. */
    public static final int NO_MATCH = 0;
    /** {@link #matchSerialized}: the bytes cannot be read in place; deserialize and call {@link #matches}. */
    public static final int DESERIALIZE = -1;

    private record Compiled(List<String> parameters, FilterNode onSample, FilterNode onBytes)
    {
    }

    /** The state a filter and its copies share, so that new parameters reach every copy at once. */
    private static final class Shared
    {
        volatile Compiled compiled;
    }

    private final String expression;
    private final Class<T> type;
    private final Ast.Condition condition;
    private final FlatView flat;
    private final Shared shared;

    private ContentFilter(final String expression, final Class<T> type, final Ast.Condition condition,
        final FlatView flat, final Shared shared)
    {
        this.expression = expression;
        this.type = type;
        this.condition = condition;
        this.flat = flat;
        this.shared = shared;
    }

    /**
     * Parses and compiles {@code expression} for samples of {@code type}.
     *
     * @throws FilterSyntaxException naming the position and token of a syntax error, an unknown field and the
     *         type, or a constant that does not fit its field.
     */
    public static <T> ContentFilter<T> compile(final String expression, final List<String> parameters,
        final Class<T> type)
    {
        final ContentFilter<T> filter = new ContentFilter<>(expression, type, Parser.parse(expression),
            FlatView.of(type), new Shared());
        filter.setParameters(parameters);
        return filter;
    }

    /**
     * A view of the same filter with its own flyweight, for another thread's {@link #matchSerialized}: it shares the
     * parameters, so {@link #setParameters} on either changes both.
     */
    public ContentFilter<T> copy()
    {
        return new ContentFilter<>(expression, type, condition, flat == null ? null : flat.copy(), shared);
    }

    /** The topic type the filter was compiled for. */
    public Class<T> type()
    {
        return type;
    }

    public String expression()
    {
        return expression;
    }

    public List<String> parameters()
    {
        return shared.compiled.parameters();
    }

    /**
     * Recompiles with new parameter values; from the next sample on, the filter uses them.
     *
     * @throws FilterSyntaxException when a value does not fit its field (the old values stay in force).
     */
    public void setParameters(final List<String> parameters)
    {
        // the volatile write publishes the new immutable tree to every copy's next evaluation
        shared.compiled = compile(parameters == null ? List.of() : List.copyOf(parameters));
    }

    /** Whether the sample passes the filter. */
    public boolean matches(final T sample)
    {
        return shared.compiled.onSample().test(sample);
    }

    /**
     * Evaluates the filter on a serialized sample (encapsulation header at {@code offset}) when it can be read in
     * place; {@link #MATCH}, {@link #NO_MATCH} or {@link #DESERIALIZE}.
     */
    public int matchSerialized(final MemorySegment segment, final long offset, final long length)
    {
        final FilterNode onBytes = shared.compiled.onBytes();
        if (onBytes == null)
        {
            return DESERIALIZE;
        }
        final Object view = flat.wrap(segment, offset, length);
        if (view == null)
        {
            return DESERIALIZE;
        }
        return onBytes.test(view) ? MATCH : NO_MATCH;
    }

    /** Whether {@link #matchSerialized} reads samples in place (else it always answers {@link #DESERIALIZE}). */
    public boolean readsSerialized()
    {
        return shared.compiled.onBytes() != null;
    }

    private Compiled compile(final List<String> parameters)
    {
        final FilterNode onSample = new FilterCompiler(expression, parameters, type,
            name -> FieldAccess.resolve(expression, type, name)).compile(condition);
        FilterNode onBytes = null;
        if (flat != null)
        {
            try
            {
                onBytes = new FilterCompiler(expression, parameters, type, name -> flatMember(name))
                    .compile(condition);
            }
            catch (final NoFlatMember ex)
            {
                onBytes = null;
            }
        }
        return new Compiled(parameters, onSample, onBytes);
    }

    private FieldAccess flatMember(final Ast.Name name)
    {
        final FieldAccess viaObject = FieldAccess.resolve(expression, type, name);
        if (viaObject == null)
        {
            return null;
        }
        final FieldAccess viaFlat = flat.resolve(name, viaObject);
        if (viaFlat == null)
        {
            throw new NoFlatMember();
        }
        return viaFlat;
    }

    @Override
    public String toString()
    {
        return expression + " " + shared.compiled.parameters();
    }

    /** A member the flat view lacks: the filter reads deserialized samples only. */
    private static final class NoFlatMember extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        NoFlatMember()
        {
            super(null, null, false, false);
        }
    }
}
