package io.sirocco.examples.cli.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The soak's loss check: it must see a gap, a step back, a repeat and a late start, and nothing else. */
class SeqCheckerTest
{
    @Test
    void aStreamInOrderIsClean()
    {
        final SeqChecker checker = new SeqChecker();
        for (long seq = 1; seq <= 5; seq++)
        {
            checker.accept(2, seq);
            checker.accept(1000, seq + 40);
        }
        assertThat(checker.statLine()).isEqualTo("STAT 10 0 0 0 2:5:5");
    }

    @Test
    void aJumpIsCountedAsLostSamples()
    {
        final SeqChecker checker = new SeqChecker();
        checker.accept(2, 1);
        checker.accept(2, 2);
        checker.accept(2, 5);
        checker.accept(1001, 7);
        checker.accept(1001, 9);
        assertThat(checker.statLine()).isEqualTo("STAT 5 3 0 0 2:3:5");
    }

    @Test
    void aRepeatOrAStepBackIsDisorder()
    {
        final SeqChecker checker = new SeqChecker();
        checker.accept(2, 1);
        checker.accept(2, 2);
        checker.accept(2, 2);
        checker.accept(2, 1);
        assertThat(checker.statLine()).isEqualTo("STAT 4 0 2 0 2:4:2");
    }

    @Test
    void aLongLivedWriterMustStartAtOneButAChurnWriterNeedNot()
    {
        final SeqChecker checker = new SeqChecker();
        checker.accept(2, 3);
        checker.accept(1002, 3);
        assertThat(checker.statLine()).isEqualTo("STAT 2 0 0 1 2:1:3");
    }
}
