package io.sirocco.transport.flow;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FlowControlTest
{
    @Test
    void shouldShutTheWindowUntilTheReceiverConfirmsWholeThresholds()
    {
        final FlowControl sender = new FlowControl(1000, 0.6);
        final FlowControl receiver = new FlowControl(1000, 0.6);
        assertThat(sender.thresholdBytes()).isEqualTo(600);
        sender.posted(700);
        assertThat(sender.windowOpen()).isTrue();
        sender.posted(400);
        assertThat(sender.windowOpen()).isFalse();

        assertThat(receiver.onReceived(500)).isFalse();
        assertThat(receiver.takeCredits()).isZero();
        assertThat(receiver.onReceived(600)).isTrue(); // 1100 received: one threshold, 500 carried over
        final int credits = receiver.takeCredits();
        assertThat(credits).isEqualTo(1);
        sender.onCredits(credits);
        assertThat(sender.unconfirmedBytes()).isEqualTo(500);
        assertThat(sender.windowOpen()).isTrue();
    }

    @Test
    void shouldSendAtMost255CreditsPerByteAndKeepTheRest()
    {
        final FlowControl receiver = new FlowControl(1024, 1.0);
        receiver.onReceived(300 * 1024);
        assertThat(receiver.takeCredits()).isEqualTo(255);
        assertThat(receiver.takeCredits()).isEqualTo(45);
        assertThat(receiver.takeCredits()).isZero();
        receiver.returnCredits(3);
        assertThat(receiver.creditsPending()).isTrue();
        assertThat(receiver.takeCredits()).isEqualTo(3);
    }
}
