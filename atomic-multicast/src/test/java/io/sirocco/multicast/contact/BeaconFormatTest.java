package io.sirocco.multicast.contact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

/**
 * Beacons come from anyone on the link: only well-formed beacons of this group are taken, and the members heard stay
 * bounded however many forged ids arrive (issue 23, item 1).
 */
class BeaconFormatTest
{
    @Test
    void validBeaconsRoundTrip()
    {
        final BeaconFormat.Beacon out = BeaconFormat.parse(BeaconFormat.encode("dds-d0", 42, "10.0.0.7:7400", null),
            "dds-d0");
        assertThat(out).isEqualTo(new BeaconFormat.Beacon(42, "10.0.0.7:7400", false, null));
        final BeaconFormat.Beacon in = BeaconFormat.parse(BeaconFormat.encode("dds-d0", 43, "host-a:7400",
            new GroupIdentity(3, 42)), "dds-d0");
        assertThat(in).isEqualTo(new BeaconFormat.Beacon(43, "host-a:7400", true, new GroupIdentity(3, 42)));
    }

    @Test
    void malformedBeaconsAreRejected()
    {
        for (final String text : new String[] {
            "", "SIROCCO-BEACON", "SIROCCO-BEACON 1 dds-d0 42 10.0.0.7:7400", // too few fields
            "SIROCCO-BEACON 2 dds-d0 42 10.0.0.7:7400 0", // unknown version
            "SIROCCO-BEACON 1 dds-d1 42 10.0.0.7:7400 0", // another group
            "SIROCCO-BEACON 1 dds-d0 -42 10.0.0.7:7400 0", "SIROCCO-BEACON 1 dds-d0 0 10.0.0.7:7400 0",
            "SIROCCO-BEACON 1 dds-d0 4x2 10.0.0.7:7400 0", "SIROCCO-BEACON 1 dds-d0 99999999999999999999 h:1 0",
            "SIROCCO-BEACON 1 dds-d0 42 10.0.0.7 0", "SIROCCO-BEACON 1 dds-d0 42 10.0.0.7:0 0",
            "SIROCCO-BEACON 1 dds-d0 42 10.0.0.7:65536 0", "SIROCCO-BEACON 1 dds-d0 42 :7400 0",
            "SIROCCO-BEACON 1 dds-d0 42 h/../x:7400 0", "SIROCCO-BEACON 1 dds-d0 42 h:7400 2",
            "SIROCCO-BEACON 1 dds-d0 42 h:7400 0 3 41", // a group identity outside a view
            "SIROCCO-BEACON 1 dds-d0 42 h:7400 1", // in a view without one
            "SIROCCO-BEACON 1 dds-d0 42 h:7400 1 0 41", "SIROCCO-BEACON 1 dds-d0 42 h:7400 1 3 -1",
            "SIROCCO-BEACON 1 dds-d0 42 " + "h".repeat(600) + ":7400 0"})
        {
            assertThat(BeaconFormat.parse(text, "dds-d0")).as("'%s'", text).isNull();
        }
    }

    @Test
    void randomBytesNeverMakeABeacon()
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 10_000; i++)
        {
            final byte[] bytes = new byte[random.nextInt(0, 600)];
            random.nextBytes(bytes);
            final String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
            assertThat(BeaconFormat.parse(text, "dds-d0")).isNull();
        }
    }

    @Test
    void tenThousandForgedIdsKeepTheHeardMembersBounded()
    {
        final HeardMembers heard = new HeardMembers();
        assertThat(heard.hear(1, "127.0.0.1:7400", true, true, new GroupIdentity(2, 1))).isTrue();
        int refused = 0;
        for (long id = 1000; id < 11_000; id++)
        {
            if (!heard.hear(id, "10.9.9.9:" + (1 + id % 60_000), false, true, null))
            {
                refused++;
            }
        }
        assertThat(heard.size()).isEqualTo(HeardMembers.MAX_PEERS);
        assertThat(refused).isEqualTo(10_000 - (HeardMembers.MAX_PEERS - 1));
        // A member known before the flood is still heard and refreshed.
        assertThat(heard.hear(1, "127.0.0.1:7400", true, true, new GroupIdentity(2, 1))).isTrue();
        assertThat(heard.get(1)).isNotNull();
    }
}
