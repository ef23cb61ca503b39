package io.sirocco.pubsub.pub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.pubsub.bus.EndpointRecord;
import org.junit.jupiter.api.Test;

/**
 * Writer-side filtering decides from the matched readers' announced filters: a sample is left out only while every
 * matched reader has a filter and none passes it, and each left-out sample is counted.
 */
class ReaderFiltersTest
{
    /** A sample type with one member the filters read. */
    public static final class Reading
    {
        public int x;

        Reading(final int x)
        {
            this.x = x;
        }
    }

    private final ReaderFilters<Reading> filters = new ReaderFilters<>("writer", Reading.class);

    private static EndpointRecord reader(final long guid)
    {
        return new EndpointRecord(EndpointRecord.READER, guid, guid & ~0xFFFFFL, "T", "T::Reading",
            Reading.class.getName(), 1, 0, 0, Long.MAX_VALUE, 0, 0, Long.MAX_VALUE, 0, 0, 0, false, false, 0, 1,
            List.of(), new byte[0], "", 0);
    }

    private static EndpointRecord filtered(final long guid, final String expression, final String... parameters)
    {
        return reader(guid).withFilter(expression, List.of(parameters));
    }

    private boolean wanted(final int x)
    {
        return filters.wanted(new Reading(x));
    }

    @Test
    void shouldSendEverythingWithoutMatchedReaders()
    {
        assertThat(wanted(1)).isTrue();
        assertThat(filters.filteredOut()).isZero();
    }

    @Test
    void shouldLeaveOutWhatNoFilteredReaderWantsAndCountIt()
    {
        filters.matched(filtered(1, "x > 10"));
        filters.matched(filtered(2, "x < %0", "3"));
        assertThat(wanted(11)).isTrue();
        assertThat(wanted(2)).isTrue();
        assertThat(wanted(5)).isFalse();
        assertThat(wanted(10)).isFalse();
        assertThat(filters.filteredOut()).isEqualTo(2);

        filters.unmatched(1);
        assertThat(wanted(11)).isFalse();
        assertThat(filters.filteredOut()).isEqualTo(3);
    }

    @Test
    void shouldSendEverythingWhileOneMatchedReaderHasNoFilter()
    {
        filters.matched(filtered(1, "x > 10"));
        filters.matched(reader(2));
        assertThat(wanted(5)).isTrue();
        filters.unmatched(2);
        assertThat(wanted(5)).isFalse();
        assertThat(filters.filteredOut()).isEqualTo(1);
    }

    @Test
    void shouldFollowNewParametersOfAMatchedReader()
    {
        filters.matched(filtered(1, "x > %0", "10"));
        assertThat(wanted(5)).isFalse();
        filters.matched(filtered(1, "x > %0", "1"));
        assertThat(wanted(5)).isTrue();
    }

    @Test
    void shouldSendEverythingToAReaderWhoseFilterDoesNotCompileHere()
    {
        filters.matched(filtered(1, "x > 10"));
        filters.matched(filtered(2, "nosuchfield > 10"));
        assertThat(wanted(5)).isTrue();
        assertThat(filters.filteredOut()).isZero();
    }
}
