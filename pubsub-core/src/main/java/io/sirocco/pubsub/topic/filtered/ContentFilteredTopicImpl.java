package io.sirocco.pubsub.topic.filtered;

import io.sirocco.pubsub.content.ContentFilter;
import io.sirocco.pubsub.core.DdsExceptions;
import io.sirocco.pubsub.topic.TopicImpl;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.omg.dds.core.ServiceEnvironment;
import org.omg.dds.domain.DomainParticipant;
import org.omg.dds.topic.ContentFilteredTopic;
import org.omg.dds.topic.Topic;
import org.omg.dds.topic.TopicDescription;
import org.omg.dds.type.TypeSupport;

/**
 * A ContentFilteredTopic: a related Topic and a DDS-SQL filter. A DataReader created on it reads the related topic
 * and keeps only the samples that pass the filter; each reader evaluates its own {@link ContentFilter#copy copy}
 * (own flyweight, shared parameters), so {@link #setExpressionParameters} changes the filter of every reader at once.
 *
 * <p>A reader created on it announces the filter (expression and parameters) with its endpoint record, so that
 * writers can filter for it; it {@link #watchParameters watches} the parameters to announce new ones.
 *
 * <p>Concurrency: immutable but for the filter's parameters (see {@link ContentFilter}), the watchers and the closed
 * flag. {@code parametersLock} guards the watchers and orders parameter changes: each change and its calls to the
 * watchers happen under it, so readers announce the changes in the order they were made, and a watcher removed by
 * {@link #unwatchParameters} is never called again once that returns.
 */
public final class ContentFilteredTopicImpl<T> implements ContentFilteredTopic<T>
{
    private final ServiceEnvironment env;
    private final String name;
    private final TopicImpl<T> related;
    private final ContentFilter<T> filter;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReentrantLock parametersLock = new ReentrantLock();
    private final List<Consumer<List<String>>> watchers = new ArrayList<>();

    private ContentFilteredTopicImpl(final String name, final TopicImpl<T> related, final ContentFilter<T> filter)
    {
        this.env = related.getEnvironment();
        this.name = name;
        this.related = related;
        this.filter = filter;
    }

    /**
     * Compiles the filter for the related topic's type.
     *
     * @throws IllegalArgumentException naming the position and token of a syntax error, or an unknown field and
     *         the type ({@code FilterSyntaxException}).
     */
    public static <T> ContentFilteredTopicImpl<T> create(final String name, final TopicImpl<T> related,
        final String filterExpression, final List<String> parameters)
    {
        if (name == null || name.isEmpty())
        {
            throw new IllegalArgumentException("createContentFilteredTopic: a name is required");
        }
        related.checkOpen();
        final ContentFilter<T> filter = ContentFilter.compile(filterExpression, parameters,
            related.getTypeSupport().getType());
        return new ContentFilteredTopicImpl<>(name, related, filter);
    }

    /** The related topic, for the subscriber that creates a reader on this one. */
    public TopicImpl<T> related()
    {
        checkOpen();
        return related;
    }

    /** A filter for one new reader: its own flyweight, parameters shared with this topic. */
    public ContentFilter<T> readerFilter()
    {
        checkOpen();
        return filter.copy();
    }

    @Override
    public String getFilterExpression()
    {
        return filter.expression();
    }

    @Override
    public List<String> getExpressionParameters()
    {
        return filter.parameters();
    }

    @Override
    public void setExpressionParameters(final List<String> expressionParameters)
    {
        checkOpen();
        parametersLock.lock();
        try
        {
            filter.setParameters(expressionParameters);
            final List<String> now = filter.parameters();
            for (final Consumer<List<String>> watcher : watchers)
            {
                watcher.accept(now);
            }
        }
        finally
        {
            parametersLock.unlock();
        }
    }

    /** From now on {@code watcher} is called with each new set of parameters (a reader announces them). */
    public void watchParameters(final Consumer<List<String>> watcher)
    {
        parametersLock.lock();
        try
        {
            watchers.add(watcher);
        }
        finally
        {
            parametersLock.unlock();
        }
    }

    /** Stops calling {@code watcher}; a call in progress on another thread has ended when this returns. */
    public void unwatchParameters(final Consumer<List<String>> watcher)
    {
        parametersLock.lock();
        try
        {
            watchers.remove(watcher);
        }
        finally
        {
            parametersLock.unlock();
        }
    }

    @Override
    public Topic<? extends T> getRelatedTopic()
    {
        return related;
    }

    @Override
    public TypeSupport<T> getTypeSupport()
    {
        return related.getTypeSupport();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <OTHER> TopicDescription<OTHER> cast()
    {
        return (TopicDescription<OTHER>)this;
    }

    @Override
    public String getTypeName()
    {
        return related.getTypeName();
    }

    @Override
    public String getName()
    {
        return name;
    }

    @Override
    public DomainParticipant getParent()
    {
        return related.getParent();
    }

    /**
     * Closes this description; readers created on it keep their filter. It does not hold the related topic open
     * (the participant does not track ContentFilteredTopics, so its close must not be refused because of one).
     */
    @Override
    public void close()
    {
        closed.set(true);
    }

    @Override
    public ServiceEnvironment getEnvironment()
    {
        return env;
    }

    private void checkOpen()
    {
        if (closed.get())
        {
            throw DdsExceptions.alreadyClosed(env, "ContentFilteredTopic '" + name + "'");
        }
    }

    @Override
    public String toString()
    {
        return "ContentFilteredTopic '" + name + "' on " + related.describe() + " where " + filter;
    }
}
