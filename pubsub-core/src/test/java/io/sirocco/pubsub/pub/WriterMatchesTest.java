package io.sirocco.pubsub.pub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;

import io.sirocco.pubsub.SiroccoServiceEnvironment;
import io.sirocco.pubsub.bus.EndpointRecord;
import io.sirocco.pubsub.core.HandleImpl;
import org.junit.jupiter.api.Test;
import org.omg.dds.core.status.PublicationMatchedStatus;

/**
 * A writer's matched readers and its PUBLICATION_MATCHED status change together: a reader the status names is known
 * to getMatchedSubscriptionData ({@link WriterMatches#reader}) and counted in getMatchedSubscriptions.
 */
class WriterMatchesTest
{
    private final SiroccoServiceEnvironment env = new SiroccoServiceEnvironment();
    private final Object statusLock = new Object();
    private final WriterMatches matches = new WriterMatches(statusLock, new ReaderFilters<>("writer", Object.class));

    private static EndpointRecord reader(final long guid)
    {
        return EndpointRecord.participant(guid, new byte[0], "host", 1);
    }

    private PublicationMatchedStatus take()
    {
        synchronized (statusLock)
        {
            return matches.status(env);
        }
    }

    @Test
    void shouldMatchAReaderOnceAndForgetItWhenGone()
    {
        assertThat(matches.add(reader(7))).isTrue();
        assertThat(matches.add(reader(7))).isFalse();
        final PublicationMatchedStatus matched = take();
        assertThat(matched.getTotalCount()).isEqualTo(1);
        assertThat(matched.getCurrentCount()).isEqualTo(1);
        assertThat(HandleImpl.valueOf(matched.getLastSubscriptionHandle())).isEqualTo(7);
        assertThat(matches.reader(7)).isNotNull();
        assertThat(matches.handles(env)).extracting(HandleImpl::valueOf).containsExactly(7L);

        assertThat(matches.remove(7)).isTrue();
        assertThat(matches.remove(7)).isFalse();
        final PublicationMatchedStatus gone = take();
        assertThat(gone.getCurrentCount()).isZero();
        assertThat(gone.getCurrentCountChange()).isEqualTo(-1);
        assertThat(matches.reader(7)).isNull();
        assertThat(matches.handles(env)).isEmpty();
    }

    @Test
    void shouldKnowEveryReaderTheStatusNamesWhileReadersMatch() throws Exception
    {
        final int readers = 20_000;
        final AtomicReference<String> broken = new AtomicReference<>();
        final Thread discovery = new Thread(() ->
        {
            for (long guid = 1; guid <= readers; guid++)
            {
                matches.add(reader(guid));
            }
        });
        discovery.start();
        while (discovery.isAlive() && broken.get() == null)
        {
            final PublicationMatchedStatus status = take();
            final long last = HandleImpl.valueOf(status.getLastSubscriptionHandle());
            if (last != 0 && matches.reader(last) == null)
            {
                broken.set("the status names reader " + last + " but it is not a matched subscription");
            }
            if (matches.handles(env).size() < status.getCurrentCount())
            {
                broken.set("the status counts " + status.getCurrentCount() + " readers, more than are matched");
            }
        }
        discovery.join();
        assertThat(broken.get()).isNull();
        assertThat(take().getCurrentCount()).isEqualTo(readers);
    }
}
