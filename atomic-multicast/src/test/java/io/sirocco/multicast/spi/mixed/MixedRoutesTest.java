package io.sirocco.multicast.spi.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.sirocco.multicast.spi.RowTransportContext;
import org.junit.jupiter.api.Test;

/** Route choice per peer from the announced host identities, and the report format the multi-process tests parse. */
class MixedRoutesTest
{
    private static final List<RowTransportContext.MemberAddress> MEMBERS = List.of(
        new RowTransportContext.MemberAddress(11, "a/1234abcd", 1, "10.0.0.1:1"),
        new RowTransportContext.MemberAddress(12, "b/00ff00ff", 2, "10.0.0.2:1"),
        new RowTransportContext.MemberAddress(13, "a/1234abcd", 3, "10.0.0.1:2"),
        new RowTransportContext.MemberAddress(14, "a/99999999", 4, "10.0.0.1:3"));

    @Test
    void sameIdentitySharesMemoryAnyOtherIdentityIsTcp()
    {
        final MixedRoutes routes = new MixedRoutes("g", 7, 0, MEMBERS);
        assertThat(routes.routeOf(0)).isNull();
        assertThat(routes.routeOf(1)).isEqualTo(MixedRoutes.TCP);
        assertThat(routes.routeOf(2)).isEqualTo(MixedRoutes.SHM);
        // Same host name, different identity (another container or shm root): tcp.
        assertThat(routes.routeOf(3)).isEqualTo(MixedRoutes.TCP);
        assertThat(routes.remoteCount()).isEqualTo(2);
        assertThat(routes.sameHost()).containsExactly(false, false, true, false);
        assertThat(routes.otherHost()).containsExactly(false, true, false, true);
    }

    @Test
    void everyPeerOnThisHostNeedsNoTcp()
    {
        final MixedRoutes routes = new MixedRoutes("g", 1, 1, List.of(MEMBERS.get(0), MEMBERS.get(2)));
        assertThat(routes.remoteCount()).isZero();
        assertThat(routes.routeOf(0)).isEqualTo(MixedRoutes.SHM);
    }

    @Test
    void planAndReportNameEveryPeerWithItsRoute()
    {
        final MixedRoutes routes = new MixedRoutes("dds-d5", 7, 2, MEMBERS);
        assertThat(routes.plan()).isEqualTo("group dds-d5 view 7 member 13 (host a/1234abcd) mixed routes:"
            + " member 11 (host a/1234abcd) shm; member 12 (host b/00ff00ff) tcp; member 14 (host a/99999999) tcp;");
        assertThat(routes.report(rank -> 100L + rank)).isEqualTo("group dds-d5 view 7 member 13 (host a/1234abcd)"
            + " closed, row pushes by route: member 11 (host a/1234abcd) shm 100; member 12 (host b/00ff00ff) tcp 101;"
            + " member 14 (host a/99999999) tcp 103;");
    }
}
