package io.sirocco.dds.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Discovery settings: defaults, the {@code auto} rule, and errors that name the setting. */
class SiroccoConfigTest
{
    @Test
    void discoveryDefaultsToTheHostRegistryAndToPeersWhenPeersAreGiven()
    {
        final SiroccoConfig plain = SiroccoConfig.from(Map.of("sirocco.dds.discovery", "auto", "sirocco.dds.peers", ""));
        assertThat(plain.discovery()).isEqualTo("shm");
        assertThat(plain.networkDiscovery()).isFalse();
        assertThat(plain.contactPort(3)).isEqualTo(7403);
        assertThat(plain.multicastGroup()).isEqualTo("239.255.0.1");
        assertThat(plain.multicastPort()).isEqualTo(7399);
        assertThat(plain.discoveryWaitMs()).isEqualTo(2000);

        final SiroccoConfig peers = SiroccoConfig.from(Map.of("sirocco.dds.discovery", "auto",
            "sirocco.dds.peers", "10.0.0.1,10.0.0.2:7500", "sirocco.dds.contact.port", "7600"));
        assertThat(peers.discovery()).isEqualTo("peers");
        assertThat(peers.networkDiscovery()).isTrue();
        assertThat(peers.contactPort(3)).isEqualTo(7600);

        assertThat(SiroccoConfig.from(Map.of("sirocco.dds.discovery", "multicast", "sirocco.dds.peers", ""))
            .networkDiscovery()).isTrue();
    }

    @Test
    void badDiscoverySettingsNameTheSetting()
    {
        assertThatThrownBy(() -> SiroccoConfig.from(Map.of("sirocco.dds.discovery", "dns", "sirocco.dds.peers", "")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sirocco.dds.discovery")
            .hasMessageContaining("'dns'");
        assertThatThrownBy(() -> SiroccoConfig.from(Map.of("sirocco.dds.discovery", "peers", "sirocco.dds.peers", "")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sirocco.dds.peers");
    }

    @Test
    void adaptiveSpinsDefaultToOneAndAHalfMicrosecondsAndRejectANegativeThreshold()
    {
        assertThat(SiroccoConfig.from(Map.of()).idleAdaptiveNs()).isEqualTo(SiroccoConfig.DEFAULT_IDLE_ADAPTIVE_NS)
            .isEqualTo(1_500);
        assertThat(SiroccoConfig.from(Map.of("sirocco.dds.idle.adaptive.ns", "0")).idleAdaptiveNs()).isZero();
        assertThatThrownBy(() -> SiroccoConfig.from(Map.of("sirocco.dds.idle.adaptive.ns", "-1")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sirocco.dds.idle.adaptive.ns");
    }

    @Test
    void suspicionTimeoutDefaultsToTwoSecondsAndRejectsLessThanTenHeartbeats()
    {
        assertThat(SiroccoConfig.from(Map.of()).suspicionTimeoutMs()).isEqualTo(2_000);
        assertThat(SiroccoConfig.from(Map.of("sirocco.dds.suspicion.ms", "5000")).suspicionTimeoutMs())
            .isEqualTo(5_000);
        assertThatThrownBy(() -> SiroccoConfig.from(Map.of("sirocco.dds.suspicion.ms", "50")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sirocco.dds.suspicion.ms");
    }
}
