package io.sirocco.ib;

import java.util.List;

import io.sirocco.transport.config.Setting;
import io.sirocco.transport.config.SettingsCatalog;

import static io.sirocco.ib.IbConfiguration.*;

/**
 * Every {@code sirocco.ib.*} setting of {@link IbConfiguration}, for {@code docs/configuration.md} and the
 * unknown-key warning. Registered in {@code META-INF/services}. Stateless.
 */
public final class IbSettingsCatalog implements SettingsCatalog
{
    @Override
    public String module()
    {
        return "ib";
    }

    @Override
    public List<Setting> settings()
    {
        return List.of(
            new Setting(DEVICE_PROP, "first device listed", "RDMA device name as rdma-info shows it"),
            new Setting(PORT_PROP, "1", "HCA port"),
            new Setting(GID_INDEX_PROP, "0", "source GID index for the GRH"),
            new Setting(MTU_PROP, "5 (4096)", "path MTU as enum ibv_mtu, capped to the port's active MTU"),
            new Setting(SEND_QUEUE_DEPTH_PROP, "256", "max_send_wr per peer queue pair"),
            new Setting(MAX_INLINE_BYTES_PROP, "64", "rows: max_inline_data"),
            new Setting(SIGNAL_EVERY_PROP, "16", "rows: one signaled work request every k per peer"),
            new Setting(TIMEOUT_PROP, "4", "rows: queue-pair local ACK timeout exponent"),
            new Setting(RETRY_COUNT_PROP, "6", "rows: queue-pair transport retries"),
            new Setting(COMPLETION_TIMEOUT_MS_PROP, "2000",
                "rows: a signaled write incomplete this long freezes the row and suspects the peer, ms"),
            new Setting(EXCHANGE_TIMEOUT_MS_PROP, String.valueOf(EXCHANGE_TIMEOUT_MS_DEFAULT),
                "rows: deadline of each round of the queue-pair and table exchange, ms"),
            new Setting(SRQ_DEPTH_PROP, String.valueOf(SRQ_DEPTH_DEFAULT),
                "messaging: receive buffers in the shared receive queue"),
            new Setting(SEND_SLOTS_PROP, String.valueOf(SEND_SLOTS_DEFAULT),
                "messaging: registered staging slots per outgoing connection"),
            new Setting(AUTO_FALLBACK_PROP, AUTO_FALLBACK_DEFAULT,
                "messaging transport used by auto when RDMA is unavailable"));
    }
}
