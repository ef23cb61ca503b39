package io.sirocco.pubsub.pub;

import java.util.HashMap;
import java.util.Map;

import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.content.ContentFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writer-side content filtering: the content filters of a DataWriter's matched readers, compiled for the writer's
 * type from the expression and parameters each reader announced (a reader of a ContentFilteredTopic). A sample
 * that no matched reader's filter passes is not sent ({@link #wanted}); the readers filter too, so this only saves
 * the traffic and their work. It filters only while EVERY matched reader has a filter that compiled here: one plain
 * reader, a filter this writer cannot compile, or no matched reader at all, and every sample is sent.
 *
 * <p>Threads: {@link #matched} and {@link #unmatched} run on the discovery thread, under the writer's
 * {@code statusLock} (they rebuild {@code active}, an immutable array published by a volatile write); {@link #wanted}
 * runs on the writing thread under the writer's {@code lock} and reads {@code active} once per sample. The filters
 * are evaluated on the sample object ({@link ContentFilter#matches}, thread-safe, no allocation).
 * {@code filteredOut} is written under the writer's lock only and read from any thread.
 *
 * @param <T> the topic type.
 */
final class ReaderFilters<T>
{
    private static final Logger LOG = LoggerFactory.getLogger(ReaderFilters.class);

    /** A matched reader's compiled filter and what it was compiled from (to recompile only on a change). */
    private record Compiled<T>(String expression, java.util.List<String> parameters, ContentFilter<T> filter)
    {
    }

    private final String owner;
    private final Class<T> type;
    /** Matched reader GUID to its compiled filter, or to null for a reader without (or with an unusable) filter. */
    private final Map<Long, Compiled<T>> byReader = new HashMap<>();
    /** The filters to apply, one per matched reader; null when every sample must be sent. */
    private volatile ContentFilter<T>[] active;
    private volatile long filteredOut;

    ReaderFilters(final String owner, final Class<T> type)
    {
        this.owner = owner;
        this.type = type;
    }

    /** Discovery thread, under statusLock: a reader matched, or a matched reader announced new filter parameters. */
    void matched(final EndpointRecord reader)
    {
        final Compiled<T> known = byReader.get(reader.guid());
        if (known != null && known.expression().equals(reader.filterExpression()) &&
            known.parameters().equals(reader.filterParameters()))
        {
            return;
        }
        byReader.put(reader.guid(), compile(reader));
        rebuild();
    }

    /** Discovery thread, under statusLock: a matched reader is gone. */
    void unmatched(final long readerGuid)
    {
        if (byReader.containsKey(readerGuid))
        {
            byReader.remove(readerGuid);
            rebuild();
        }
    }

    /**
     * Writing thread, under the writer's lock: whether some matched reader wants the sample (always, unless every
     * matched reader has a filter). A sample left out is counted ({@link #filteredOut()}).
     */
    boolean wanted(final T sample)
    {
        final ContentFilter<T>[] filters = active;
        if (filters == null)
        {
            return true;
        }
        for (final ContentFilter<T> filter : filters)
        {
            if (passes(filter, sample))
            {
                return true;
            }
        }
        filteredOut++;
        return false;
    }

    /** The number of samples this writer did not send because no matched reader's filter passed them. */
    long filteredOut()
    {
        return filteredOut;
    }

    private boolean passes(final ContentFilter<T> filter, final T sample)
    {
        try
        {
            return filter.matches(sample);
        }
        catch (final RuntimeException ex)
        {
            // The reader decides what it cannot evaluate here (its own filter sees the same sample).
            return true;
        }
    }

    private Compiled<T> compile(final EndpointRecord reader)
    {
        if (!reader.hasFilter())
        {
            return new Compiled<>("", java.util.List.of(), null);
        }
        try
        {
            return new Compiled<>(reader.filterExpression(), reader.filterParameters(),
                ContentFilter.compile(reader.filterExpression(), reader.filterParameters(), type));
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("{}: reader {} filter '{}' does not compile here ({}); sending it every sample", owner,
                String.format("%016x", reader.guid()), reader.filterExpression(), ex.getMessage());
            return new Compiled<>(reader.filterExpression(), reader.filterParameters(), null);
        }
    }

    @SuppressWarnings("unchecked")
    private void rebuild()
    {
        final ContentFilter<T>[] filters = new ContentFilter[byReader.size()];
        int n = 0;
        for (final Compiled<T> compiled : byReader.values())
        {
            if (compiled.filter() == null)
            {
                active = null;
                LOG.debug("{}: writer-side filtering off (a matched reader has no usable filter)", owner);
                return;
            }
            filters[n++] = compiled.filter();
        }
        active = n == 0 ? null : filters;
        LOG.debug("{}: writer-side filtering {} ({} matched readers, all filtered; {} samples left out so far)",
            owner, n == 0 ? "off" : "on", n, filteredOut);
    }
}
