package io.sirocco.examples.cli.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The soak's "bounded" judgement: a steady climb after the warm-up is not bounded, a plateau with noise is. */
class ProcessSamplerTest
{
    private static final long MB = 1024;

    @Test
    void aPlateauAfterTheWarmUpIsBounded()
    {
        final ProcessSampler sampler = new ProcessSampler();
        for (int i = 0; i < 40; i++)
        {
            // Warm-up climb, then a plateau with garbage-collector noise.
            final long rss = i < 10 ? (100 + 10 * i) * MB : (200 + (i % 3) * 8) * MB;
            sampler.add(new ProcessSampler.Usage(rss, 36, 14 + i % 2));
        }
        assertThat(sampler.unboundedReason()).isEmpty();
        assertThat(sampler.max()).isEqualTo(new ProcessSampler.Usage(216 * MB, 36, 15));
    }

    @Test
    void aSteadyClimbIsNotBounded()
    {
        final ProcessSampler rss = new ProcessSampler();
        final ProcessSampler threads = new ProcessSampler();
        final ProcessSampler files = new ProcessSampler();
        for (int i = 0; i < 40; i++)
        {
            rss.add(new ProcessSampler.Usage((200 + 10 * i) * MB, 36, 14));
            threads.add(new ProcessSampler.Usage(200 * MB, 36 + i / 2, 14));
            files.add(new ProcessSampler.Usage(200 * MB, 36, 14 + i));
        }
        assertThat(List.of(rss.unboundedReason(), threads.unboundedReason(), files.unboundedReason()))
            .satisfiesExactly(r -> assertThat(r).startsWith("RSS grew"), t -> assertThat(t).startsWith("threads grew"),
                f -> assertThat(f).startsWith("open files grew"));
    }

    @Test
    void tooFewSamplesAreNoTrend()
    {
        final ProcessSampler sampler = new ProcessSampler();
        for (int i = 0; i < 6; i++)
        {
            sampler.add(new ProcessSampler.Usage((100 + 50 * i) * MB, 36, 14));
        }
        assertThat(sampler.unboundedReason()).isEmpty();
    }

    @Test
    void thisProcessCanBeSampled()
    {
        final ProcessSampler sampler = new ProcessSampler();
        assertThat(sampler.sample(List.of(ProcessHandle.current().pid()))).isTrue();
        assertThat(sampler.last().rssKb()).isPositive();
        assertThat(sampler.last().threads()).isPositive();
        assertThat(sampler.last().files()).isPositive();
    }

    @Test
    void threadsTheJvmStartsByItselfAreNotCounted() throws Exception
    {
        final ProcessSampler sampler = new ProcessSampler();
        assertThat(sampler.sample(List.of(ProcessHandle.current().pid()))).isTrue();
        final long before = sampler.last().threads();
        final java.util.concurrent.CountDownLatch stop = new java.util.concurrent.CountDownLatch(1);
        final Thread ours = new Thread(() ->
        {
            try
            {
                stop.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "soak-sampler-test");
        ours.start();
        try
        {
            assertThat(sampler.sample(List.of(ProcessHandle.current().pid()))).isTrue();
            assertThat(sampler.last().threads()).as("a thread of ours is counted").isGreaterThan(before);
        }
        finally
        {
            stop.countDown();
            ours.join();
        }
        assertThat(List.of("C1 CompilerThre", "C2 CompilerThre", "Attach Listener", "process reaper "))
            .allMatch(ProcessSampler::jvmTransient);
        assertThat(List.of("sirocco-mcast-d", "sirocco-dcps-d1", "main", "soak-sampler-te"))
            .noneMatch(ProcessSampler::jvmTransient);
    }
}
