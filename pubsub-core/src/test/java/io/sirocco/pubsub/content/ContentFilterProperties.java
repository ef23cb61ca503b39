package io.sirocco.pubsub.content;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compiled filter against a straightforward reference evaluator: random expressions (generated here as a tree,
 * printed as DDS-SQL text with random keyword case, parentheses, literals or %n parameters) on random samples. The
 * reference reads members by name with lambdas and compares boxed values; it shares no code with the filter.
 */
class ContentFilterProperties
{
    /** A member the generator may name: its DDS-SQL path, its kind, how the reference reads it (null: unreadable). */
    private record Member(String path, ValueKind kind, Function<FilterProbe, Object> read)
    {
    }

    private static final List<Member> MEMBERS = List.of(
        new Member("b", ValueKind.INTEGRAL, p -> (long)p.b),
        new Member("s", ValueKind.INTEGRAL, p -> (long)p.s),
        new Member("i", ValueKind.INTEGRAL, p -> (long)p.i),
        new Member("l", ValueKind.INTEGRAL, p -> p.l),
        new Member("f", ValueKind.FLOATING, p -> (double)p.f),
        new Member("d", ValueKind.FLOATING, p -> p.d),
        new Member("c", ValueKind.CHAR, p -> (long)p.c),
        new Member("flag", ValueKind.BOOLEAN, p -> p.flag),
        new Member("str", ValueKind.STRING, p -> p.str),
        new Member("color", ValueKind.ENUM, p -> p.color),
        new Member("inner.depth", ValueKind.INTEGRAL, p -> (long)p.inner.depth),
        new Member("inner.label", ValueKind.STRING, p -> p.inner.label),
        new Member("arr[1]", ValueKind.INTEGRAL, p -> (long)p.arr[1]),
        new Member("arr[3]", ValueKind.INTEGRAL, p -> null),
        new Member("seq[0]", ValueKind.INTEGRAL, p -> p.seq.isEmpty() ? null : (long)p.seq.get(0)));

    private static final String[] OPS = {"=", "<>", "!=", "<", "<=", ">", ">="};

    /** A generated expression: its text, its parameters, and the reference's verdict on a sample. */
    private record Expr(String text, List<String> params, Function<FilterProbe, Boolean> reference)
    {
    }

    @Property(tries = 400)
    void compiledFilterAgreesWithReference(@ForAll("expressions") final Expr expr,
        @ForAll("samples") final List<FilterProbe> samples)
    {
        final ContentFilter<FilterProbe> filter = ContentFilter.compile(expr.text(), expr.params(),
            FilterProbe.class);
        for (final FilterProbe sample : samples)
        {
            assertThat(filter.matches(sample)).as("%s %s on %s", expr.text(), expr.params(), show(sample))
                .isEqualTo(expr.reference().apply(sample));
        }
    }

    private static String show(final FilterProbe p)
    {
        return "b=" + p.b + " s=" + p.s + " i=" + p.i + " l=" + p.l + " f=" + p.f + " d=" + p.d + " c=" + p.c +
            " flag=" + p.flag + " str=" + p.str + " color=" + p.color + " inner=" + p.inner.depth + "/" +
            p.inner.label + " arr=" + java.util.Arrays.toString(p.arr) + " seq=" + p.seq;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Samples: small values (so that comparisons with small constants go both ways) mixed with each width's extremes

    @Provide
    Arbitrary<List<FilterProbe>> samples()
    {
        return sample().list().ofMinSize(1).ofMaxSize(8);
    }

    private static Arbitrary<Long> smallOr(final long min, final long max)
    {
        return Arbitraries.oneOf(Arbitraries.longs().between(-4, 4), Arbitraries.of(min, max, 0L));
    }

    private static Arbitrary<String> word()
    {
        return Arbitraries.strings().withChars("ab_%xY ").ofMaxLength(4);
    }

    private Arbitrary<FilterProbe> sample()
    {
        final Arbitrary<long[]> ints = Combinators.combine(smallOr(Byte.MIN_VALUE, Byte.MAX_VALUE),
            smallOr(Short.MIN_VALUE, Short.MAX_VALUE), smallOr(Integer.MIN_VALUE, Integer.MAX_VALUE),
            smallOr(Long.MIN_VALUE, Long.MAX_VALUE), smallOr(Integer.MIN_VALUE, Integer.MAX_VALUE),
            smallOr(-9, 9), Arbitraries.integers().between(0, 2))
            .as((b, s, i, l, depth, a1, seqSize) -> new long[] {b, s, i, l, depth, a1, seqSize});
        final Arbitrary<double[]> reals = Combinators.combine(
            Arbitraries.oneOf(Arbitraries.doubles().between(-4, 4).ofScale(1), Arbitraries.of(Double.NaN, -0.0)),
            Arbitraries.oneOf(Arbitraries.doubles().between(-4, 4).ofScale(2), Arbitraries.of(1e300, -1e-300)))
            .as((f, d) -> new double[] {f, d});
        return Combinators.combine(ints, reals, Arbitraries.chars().with('a', 'b', 'z', '%'), Arbitraries.of(true,
            false), word(), word(), Arbitraries.of(FilterProbe.Color.class)).as((n, r, c, flag, str, label,
            color) -> {
                final FilterProbe p = new FilterProbe();
                p.b = (byte)n[0];
                p.s = (short)n[1];
                p.i = (int)n[2];
                p.l = n[3];
                p.inner.depth = (int)n[4];
                p.arr = new int[] {0, (int)n[5], 0};
                p.seq = n[6] == 0 ? List.of() : List.of((int)n[5] + 1);
                p.f = (float)r[0];
                p.d = r[1];
                p.c = c;
                p.flag = flag;
                p.str = str;
                p.inner.label = label;
                p.color = color;
                return p;
            });
    }

    // ------------------------------------------------------------------------------------------------------------
    // Expressions

    @Provide
    Arbitrary<Expr> expressions()
    {
        return condition(3);
    }

    private Arbitrary<Expr> condition(final int depth)
    {
        if (depth == 0)
        {
            return predicate();
        }
        final Arbitrary<Expr> sub = Arbitraries.lazy(() -> condition(depth - 1));
        return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, predicate()),
            net.jqwik.api.Tuple.of(1, Combinators.combine(sub, sub, keyword("AND")).as((a, b, k) ->
                join(a, k, b, p -> a.reference().apply(p) && b.reference().apply(p)))),
            net.jqwik.api.Tuple.of(1, Combinators.combine(sub, sub, keyword("OR")).as((a, b, k) ->
                join(a, k, b, p -> a.reference().apply(p) || b.reference().apply(p)))),
            net.jqwik.api.Tuple.of(1, Combinators.combine(sub, keyword("NOT")).as((a, k) ->
                new Expr(k + " (" + a.text() + ")", a.params(), p -> !a.reference().apply(p)))));
    }

    /** Parameters of the right operand are renumbered after the left's. */
    private static Expr join(final Expr a, final String keyword, final Expr b,
        final Function<FilterProbe, Boolean> reference)
    {
        String right = b.text();
        for (int k = b.params().size() - 1; k >= 0; k--)
        {
            right = right.replace("%" + k, "%" + (k + a.params().size()));
        }
        final List<String> params = new ArrayList<>(a.params());
        params.addAll(b.params());
        return new Expr("(" + a.text() + ") " + keyword + " (" + right + ")", params, reference);
    }

    private static Arbitrary<String> keyword(final String word)
    {
        return Arbitraries.of(word, word.toLowerCase(Locale.ROOT),
            word.charAt(0) + word.substring(1).toLowerCase(Locale.ROOT));
    }

    private Arbitrary<Expr> predicate()
    {
        return Arbitraries.of(MEMBERS).flatMap(m -> Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(4, comparison(m)),
            net.jqwik.api.Tuple.of(1, between(m)),
            net.jqwik.api.Tuple.of(m.kind() == ValueKind.STRING ? 2 : 0, like(m)),
            net.jqwik.api.Tuple.of(1, memberVsMember(m))));
    }

    /** A constant of the member's kind: its reference value, and how it is written as a literal or parameter. */
    private record Constant(Object value, String literal, String parameter)
    {
    }

    private Arbitrary<Constant> constant(final ValueKind kind)
    {
        return switch (kind)
        {
            case INTEGRAL -> Arbitraries.oneOf(Arbitraries.longs().between(-5, 5), Arbitraries.of(Long.MIN_VALUE,
                Long.MAX_VALUE, 200L, -40000L)).flatMap(v -> Arbitraries.of(
                    new Constant(v, Long.toString(v), Long.toString(v)),
                    new Constant(v, v >= 0 ? "0x" + Long.toHexString(v) : Long.toString(v), " " + v + " ")))
                .injectDuplicates(0.0);
            case FLOATING -> Arbitraries.doubles().between(-5, 5).ofScale(2).map(v -> new Constant(v,
                Double.toString(v), Double.toString(v)));
            case CHAR -> Arbitraries.chars().with('a', 'b', 'z', '%').map(c -> new Constant((long)c, "'" + c + "'",
                "'" + c + "'"));
            case BOOLEAN -> Arbitraries.of(true, false).map(v -> new Constant(v, v ? "TRUE" : "false",
                v ? "true" : "FALSE"));
            case STRING -> word().map(w -> new Constant(w, "'" + w + "'", "'" + w + "'"));
            case ENUM -> Arbitraries.of(FilterProbe.Color.class).flatMap(c -> Arbitraries.of(
                new Constant(c, c.name(), c.name()), new Constant(c, "'" + c.name() + "'", "" + c.value()),
                new Constant(c, Integer.toString(c.value()), "'" + c.name() + "'")));
            default -> throw new IllegalArgumentException(kind.toString());
        };
    }

    /** The constant as text or as %0. */
    private static Arbitrary<Boolean> asParameter()
    {
        return Arbitraries.of(true, false);
    }

    private Arbitrary<Expr> comparison(final Member m)
    {
        return Combinators.combine(Arbitraries.of(OPS), constant(m.kind()), asParameter(), Arbitraries.of(true,
            false)).as((op, c, param, flipped) -> {
                final String value = param ? "%0" : c.literal();
                final String text = flipped ? value + " " + op + " " + m.path() : m.path() + " " + op + " " + value;
                final String effective = flipped ? mirror(op) : op;
                return new Expr(text, param ? List.of(c.parameter()) : List.of(),
                    p -> compare(m.read().apply(p), effective, c.value()));
            });
    }

    private Arbitrary<Expr> between(final Member m)
    {
        return Combinators.combine(constant(m.kind()), constant(m.kind()), Arbitraries.of(true, false),
            keyword("BETWEEN")).as((lo, hi, negated, k) -> new Expr(m.path() + (negated ? " NOT " : " ") + k + " " +
                lo.literal() + " AND %0", List.of(hi.parameter()), p -> {
                    final Object v = m.read().apply(p);
                    final boolean in = compare(v, ">=", lo.value()) && compare(v, "<=", hi.value());
                    // x NOT BETWEEN a AND b is NOT (x BETWEEN a AND b), so it holds for an unreadable x
                    return negated != (v != null && in);
                }));
    }

    private Arbitrary<Expr> like(final Member m)
    {
        return Combinators.combine(word(), asParameter(), keyword("LIKE")).as((pattern, param, k) -> new Expr(
            m.path() + " " + k + " " + (param ? "%0" : "'" + pattern + "'"), param ? List.of(pattern) : List.of(),
            p -> {
                final Object v = m.read().apply(p);
                return v != null && likeRegex(pattern).matcher((String)v).matches();
            }));
    }

    private Arbitrary<Expr> memberVsMember(final Member m)
    {
        final List<Member> partners = new ArrayList<>();
        for (final Member other : MEMBERS)
        {
            final boolean numeric = numeric(m.kind()) && numeric(other.kind());
            if (numeric || other.kind() == m.kind())
            {
                partners.add(other);
            }
        }
        return Combinators.combine(Arbitraries.of(partners), Arbitraries.of(OPS)).as((other, op) -> new Expr(
            m.path() + op + other.path(), List.of(), p -> compare(m.read().apply(p), op, other.read().apply(p))));
    }

    private static boolean numeric(final ValueKind kind)
    {
        return kind == ValueKind.INTEGRAL || kind == ValueKind.FLOATING;
    }

    // ------------------------------------------------------------------------------------------------------------
    // The reference evaluator

    private static String mirror(final String op)
    {
        return switch (op)
        {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }

    /** {@code value op constant}; an unreadable value (null) makes it false. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean compare(final Object value, final String op, final Object constant)
    {
        if (value == null || constant == null)
        {
            return false;
        }
        if (value instanceof Double || constant instanceof Double)
        {
            final double a = ((Number)value).doubleValue();
            final double b = ((Number)constant).doubleValue();
            return switch (op)
            {
                case "=" -> a == b;
                case "<>", "!=" -> a != b;
                case "<" -> a < b;
                case "<=" -> a <= b;
                case ">" -> a > b;
                default -> a >= b;
            };
        }
        final int cmp = value instanceof Enum<?> e ? Integer.compare(e.ordinal(), ((Enum<?>)constant).ordinal()) :
            ((Comparable)value).compareTo(constant);
        return switch (op)
        {
            case "=" -> cmp == 0;
            case "<>", "!=" -> cmp != 0;
            case "<" -> cmp < 0;
            case "<=" -> cmp <= 0;
            case ">" -> cmp > 0;
            default -> cmp >= 0;
        };
    }

    private static Pattern likeRegex(final String like)
    {
        final StringBuilder regex = new StringBuilder();
        for (final char ch : like.toCharArray())
        {
            regex.append(ch == '%' ? ".*" : ch == '_' ? "." : Pattern.quote(String.valueOf(ch)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
