package io.sirocco.pubsub.content;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ContentFilterTest
{
    private static FilterProbe probe()
    {
        final FilterProbe p = new FilterProbe();
        p.b = -3;
        p.s = 300;
        p.i = 42;
        p.l = 5_000_000_000L;
        p.f = 1.5f;
        p.d = -2.25;
        p.c = 'q';
        p.flag = true;
        p.str = "hello world";
        p.color = FilterProbe.Color.BLUE;
        p.inner.depth = 9;
        p.inner.label = "deep";
        p.arr = new int[] {1, 2, 3};
        p.seq = List.of(10, 20);
        p._switch = 4;
        return p;
    }

    private static boolean eval(final String expression, final String... parameters)
    {
        return ContentFilter.compile(expression, List.of(parameters), FilterProbe.class).matches(probe());
    }

    @Test
    void comparesEveryWidthAndKind()
    {
        assertThat(eval("b = -3 AND s > 299 AND i >= 42 AND l > 4999999999 AND f < 1.6 AND d <= -2.25")).isTrue();
        assertThat(eval("i = 0x2A AND i <> 41 AND i != 43")).isTrue();
        assertThat(eval("l > 5e9")).isFalse();
        assertThat(eval("c = 'q' AND flag = TRUE AND str = 'hello world' AND color = BLUE")).isTrue();
        assertThat(eval("color > GREEN AND color = 'BLUE' AND color = 7")).isTrue();
        assertThat(eval("inner.depth = 9 AND inner.label = 'deep' AND arr[2] = 3 AND seq[1] = 20")).isTrue();
        assertThat(eval("switch = 4")).isTrue();
        assertThat(eval("42 = i AND 300 < s")).isFalse();
        assertThat(eval("42 = i AND 299 < s")).isTrue();
        assertThat(eval("i > s OR d > f")).isFalse();
        assertThat(eval("i < s AND d < f")).isTrue();
    }

    @Test
    void betweenLikeAndLogic()
    {
        assertThat(eval("i BETWEEN 40 AND 42 AND NOT s BETWEEN 1 AND 299")).isTrue();
        assertThat(eval("i NOT BETWEEN 40 AND 42")).isFalse();
        assertThat(eval("str LIKE 'hello%' AND str LIKE '%o_w%' AND NOT str LIKE 'world%'")).isTrue();
        assertThat(eval("(i = 1 OR i = 42) AND (flag = FALSE OR b < 0)")).isTrue();
        assertThat(eval("i = 1 OR i = 42 AND flag = FALSE")).isFalse();
        assertThat(eval("not (i = 1) and NOT NOT i = 42")).isTrue();
    }

    @Test
    void indexPastTheEndIsFalse()
    {
        assertThat(eval("arr[3] = 0")).isFalse();
        assertThat(eval("NOT arr[3] = 0")).isTrue();
    }

    @Test
    void parametersChangeLive()
    {
        final ContentFilter<FilterProbe> filter = ContentFilter.compile("i > %0 AND str LIKE %1 AND color = %2",
            List.of("10", "'hello%'", "BLUE"), FilterProbe.class);
        assertThat(filter.matches(probe())).isTrue();
        filter.setParameters(List.of("50", "hello%", "BLUE"));
        assertThat(filter.matches(probe())).isFalse();
        assertThat(filter.parameters()).containsExactly("50", "hello%", "BLUE");
        assertThatThrownBy(() -> filter.setParameters(List.of("x", "y", "BLUE")))
            .isInstanceOf(FilterSyntaxException.class).hasMessageContaining("parameter %0 = 'x'");
        assertThat(filter.parameters()).containsExactly("50", "hello%", "BLUE");
        filter.setParameters(List.of("41.5", "%", "7"));
        assertThat(filter.matches(probe())).isTrue();
    }

    @Test
    void syntaxErrorsNamePositionAndToken()
    {
        assertThatThrownBy(() -> eval("i > > 3")).isInstanceOf(FilterSyntaxException.class)
            .hasMessageContaining("position 4").hasMessageContaining("'>'")
            .satisfies(ex -> assertThat(((FilterSyntaxException)ex).position()).isEqualTo(4));
        assertThatThrownBy(() -> eval("i = 3 AND")).hasMessageContaining("end of expression")
            .hasMessageContaining("position 9");
        assertThatThrownBy(() -> eval("(i = 3")).hasMessageContaining("expected ')'");
        assertThatThrownBy(() -> eval("i = 'x")).hasMessageContaining("unterminated string literal");
        assertThatThrownBy(() -> eval("i # 3")).hasMessageContaining("unexpected character '#'")
            .hasMessageContaining("position 2");
        assertThatThrownBy(() -> eval("i = 3 j")).hasMessageContaining("'j'").hasMessageContaining("position 6");
        assertThatThrownBy(() -> eval("i = %0")).hasMessageContaining("parameter %0 is used but 0 parameter(s)");
    }

    @Test
    void unknownFieldsNameFieldAndType()
    {
        assertThatThrownBy(() -> eval("nope > 3")).isInstanceOf(FilterSyntaxException.class)
            .hasMessageContaining("unknown field 'nope'").hasMessageContaining(FilterProbe.class.getName())
            .hasMessageContaining("position 0");
        assertThatThrownBy(() -> eval("inner.nope = 1")).hasMessageContaining("unknown field 'inner.nope'")
            .hasMessageContaining(FilterProbe.Inner.class.getName()).hasMessageContaining("no member 'nope'");
        assertThatThrownBy(() -> eval("i = YELLOW")).hasMessageContaining("unknown field 'YELLOW'");
        assertThatThrownBy(() -> eval("color = YELLOW")).hasMessageContaining("not an enumerator");
        assertThatThrownBy(() -> eval("str > 3")).hasMessageContaining("member 'str' (String) cannot be compared");
        assertThatThrownBy(() -> eval("i LIKE 'x'")).hasMessageContaining("LIKE needs a string member");
        assertThatThrownBy(() -> eval("i[0] = 1")).hasMessageContaining("not an array or sequence");
        assertThatThrownBy(() -> eval("inner = 1")).hasMessageContaining("cannot be compared");
        assertThatThrownBy(() -> eval("l = 9223372036854775808")).hasMessageContaining("does not fit in 64 bits");
    }

    @Test
    void likePatterns()
    {
        assertThat(new LikePattern("a%b_c").matches("aXYbZc")).isTrue();
        assertThat(new LikePattern("a%b_c").matches("abc")).isFalse();
        assertThat(new LikePattern("%%").matches("")).isTrue();
        assertThat(new LikePattern("_").matches("")).isFalse();
        assertThat(new LikePattern("%a%a%").matches("banana")).isTrue();
        assertThat(new LikePattern("%ab").matches("aab")).isTrue();
    }
}
