package io.sirocco.ib.msg;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class ImmediateDataTest
{
    @Property(tries = 500)
    void fieldsRoundTrip(
        @ForAll @IntRange(min = 0, max = 0xFFFF) final int node,
        @ForAll @IntRange(min = 0, max = 255) final int credits,
        @ForAll @IntRange(min = 0, max = 255) final int flags)
    {
        final int imm = ImmediateData.encode(node, credits, flags);

        assertThat(ImmediateData.sourceNodeId(imm)).isEqualTo(node);
        assertThat(ImmediateData.credits(imm)).isEqualTo(credits);
        assertThat(ImmediateData.flags(imm)).isEqualTo(flags);
    }

    @Test
    void rejectsValuesThatDoNotFit()
    {
        assertThatThrownBy(() -> ImmediateData.encode(0x10000, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ImmediateData.encode(1, 256, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ImmediateData.encode(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
