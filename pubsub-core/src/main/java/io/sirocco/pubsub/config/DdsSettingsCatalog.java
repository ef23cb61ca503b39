package io.sirocco.pubsub.config;

import static io.sirocco.dds.config.SiroccoConfig.CONTACT_PORT;
import static io.sirocco.dds.config.SiroccoConfig.DEFAULT_IDLE_ADAPTIVE_NS;
import static io.sirocco.dds.config.SiroccoConfig.DEFAULT_SUSPICION_MS;
import static io.sirocco.dds.config.SiroccoConfig.DISCOVERY;
import static io.sirocco.dds.config.SiroccoConfig.DISCOVERY_GROUP;
import static io.sirocco.dds.config.SiroccoConfig.DISCOVERY_PERIOD_MS;
import static io.sirocco.dds.config.SiroccoConfig.DISCOVERY_PORT;
import static io.sirocco.dds.config.SiroccoConfig.DISCOVERY_WAIT_MS;
import static io.sirocco.dds.config.SiroccoConfig.IDLE_ADAPTIVE_NS;
import static io.sirocco.dds.config.SiroccoConfig.IDLE_PARK_NS;
import static io.sirocco.dds.config.SiroccoConfig.IDLE_SPINS;
import static io.sirocco.dds.config.SiroccoConfig.IDLE_SPIN_NS;
import static io.sirocco.dds.config.SiroccoConfig.IDLE_YIELDS;
import static io.sirocco.dds.config.SiroccoConfig.INTERFACE;
import static io.sirocco.dds.config.SiroccoConfig.LISTENER_INLINE;
import static io.sirocco.dds.config.SiroccoConfig.PEERS;
import static io.sirocco.dds.config.SiroccoConfig.SLOT_BYTES;
import static io.sirocco.dds.config.SiroccoConfig.SUSPICION_MS;
import static io.sirocco.dds.config.SiroccoConfig.TCP_PORT;
import static io.sirocco.dds.config.SiroccoConfig.TRANSPORT;
import static io.sirocco.dds.config.SiroccoConfig.WINDOW_SLOTS;

import java.util.List;

import io.sirocco.dds.config.SiroccoConfig;
import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;

/**
 * Every {@code sirocco.dds.*} setting, for docs/configuration.md and the unknown-key warning. dds-api cannot depend on
 * messaging-transport, so {@link SiroccoConfig} reads these keys itself and this catalog, in pubsub-core, lists them.
 * Registered in {@code META-INF/services}. Stateless.
 */
public final class DdsSettingsCatalog implements SettingsCatalog
{
    @Override
    public String module()
    {
        return "dds";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(
            new Setting(TRANSPORT, "auto", "row transport: auto, mixed, shm, tcp or local"),
            new Setting(DISCOVERY, "auto", "how members find each other: auto, shm, peers or multicast"),
            new Setting(WINDOW_SLOTS, "1024", "samples a reader may lag before a writer blocks or samples are lost"),
            new Setting(SLOT_BYTES, "2048", "initial bytes per window slot and subgroup slot payload"),
            new Setting(PEERS, "", "static contact members host[:port], separated by , ; or spaces"),
            new Setting(CONTACT_PORT, "0", "port of the network registry endpoint; 0 = 7400 + domain id"),
            new Setting(DISCOVERY_GROUP, "239.255.0.1", "UDP multicast group of the discovery beacons"),
            new Setting(DISCOVERY_PORT, "7399", "UDP port of the discovery beacons"),
            new Setting(DISCOVERY_PERIOD_MS, "200", "period of beacons and of hellos to contacts, ms"),
            new Setting(DISCOVERY_WAIT_MS, "2000", "how long a member listens for a running group before forming one"),
            new Setting(INTERFACE, "", "interface name or address to bind; empty = first up non-loopback IPv4"),
            new Setting(TCP_PORT, "0", "tcp rows: port to bind; 0 = derived from the member id"),
            new Setting(IDLE_SPINS, "50", "predicate thread: idle passes spent spinning"),
            new Setting(IDLE_YIELDS, "0", "predicate thread: idle passes spent yielding after spinning"),
            new Setting(IDLE_PARK_NS, "1000", "predicate thread: longest park per idle pass, ns"),
            new Setting(IDLE_SPIN_NS, "1000000", "predicate thread: the hot yielding window, ns; 0 = off"),
            new Setting(IDLE_ADAPTIVE_NS, String.valueOf(DEFAULT_IDLE_ADAPTIVE_NS),
                "predicate thread: a yield longer than this halves the spins, ns; 0 = off"),
            new Setting(LISTENER_INLINE, "false", "run the readers' data listeners on the predicate thread"),
            new Setting(SUSPICION_MS, String.valueOf(DEFAULT_SUSPICION_MS),
                "multicast heartbeat timeout of a participant's group, ms (at least 100)"));
    }
}
