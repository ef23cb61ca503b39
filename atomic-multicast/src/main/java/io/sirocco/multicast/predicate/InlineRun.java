package io.sirocco.multicast.predicate;

/**
 * Called under the pass lock around the passes of one inline run over every trigger
 * ({@link PredicateEngine#tryRunInline()}): a copying transport keeps the pushes of those passes (a receive, the
 * delivery, a listener's answer, the counters the next pass publishes) for one frame sent at {@link #end()}, instead
 * of one frame per pass.
 */
public interface InlineRun
{
    void begin();

    void end();
}
