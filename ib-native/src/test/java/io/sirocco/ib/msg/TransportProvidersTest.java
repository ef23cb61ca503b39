package io.sirocco.ib.msg;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaUnavailableException;
import io.sirocco.transport.MessagingService;
import io.sirocco.transport.NodeAddressMap;
import io.sirocco.transport.TransportContext;
import io.sirocco.transport.spi.Transport;
import io.sirocco.transport.spi.TransportProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ServiceLoader discovery of the IB messaging transport and its behaviour without RDMA. */
final class TransportProvidersTest
{
    private static final RdmaAvailability NO_LIBRARY =
        new RdmaAvailability(false, List.of(), "the library libibverbs.so.1 could not be loaded");

    @Test
    void bothAreFoundThroughServiceLoader()
    {
        final List<String> names = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class).forEach(p -> names.add(p.name()));
        assertThat(names).contains("rdma", "auto", "loopback");
    }

    @Test
    void explicitRdmaWithoutLibraryFailsAtCreationNamingIt()
    {
        assertThatThrownBy(() -> new IbTransportProvider(() -> NO_LIBRARY).create(new TransportContext().ownNodeId(3)))
            .isInstanceOf(RdmaUnavailableException.class)
            .hasMessageContaining("libibverbs.so.1")
            .hasMessageContaining("node 3");
    }

    @Test
    void explicitRdmaOnThisHostFailsAtStartupThroughTheMessagingCore()
    {
        final RdmaAvailability probe = RdmaAvailability.probe();
        if (!probe.available())
        {
            assertThatThrownBy(() -> MessagingService.start(new TransportContext().ownNodeId(5).transport("rdma")))
                .isInstanceOf(RdmaUnavailableException.class)
                .hasMessageContaining("transport 'rdma'")
                .hasMessageContaining(probe.missing());
        }
    }

    @Test
    void autoWithoutRdmaUsesTheFallbackAfterOneInfoLine()
    {
        final List<String> info = new ArrayList<>();
        final Transport transport = new AutoTransportProvider(() -> NO_LIBRARY, info::add, "loopback")
            .create(new TransportContext().ownNodeId(7));

        assertThat(transport.name()).isEqualTo("loopback");
        assertThat(info).singleElement().asString().contains("RDMA not used", "libibverbs.so.1", "node 7");
    }

    @Test
    void autoOnThisHostWithoutRdmaRunsRequestsOverNio() throws Exception
    {
        if (RdmaAvailability.probe().available())
        {
            return; // on an RDMA host, auto would pick the real device; this test is about the fallback
        }
        final NodeAddressMap addresses = new NodeAddressMap();
        for (final int node : new int[] {11, 12})
        {
            try (ServerSocket probe = new ServerSocket(0))
            {
                addresses.put(node, InetAddress.getLoopbackAddress().getHostAddress(), probe.getLocalPort());
            }
        }
        try (MessagingService a = MessagingService.start(
                new TransportContext().ownNodeId(11).transport("auto").addressMap(addresses));
            MessagingService b = MessagingService.start(
                new TransportContext().ownNodeId(12).transport("auto").addressMap(addresses)))
        {
            final IbTransportOverFakeVerbsTest.Echo ask = IbTransportOverFakeVerbsTest.Echo.ask(41);
            for (final MessagingService n : List.of(a, b))
            {
                n.registerMessageType(77, 3, IbTransportOverFakeVerbsTest.Echo::response);
                n.register(77, 2, IbTransportOverFakeVerbsTest.Echo::request,
                    (IbTransportOverFakeVerbsTest.Echo e) -> n.respond(e, IbTransportOverFakeVerbsTest.Echo.answer(
                        e.value + 1)));
            }
            final IbTransportOverFakeVerbsTest.EchoResponse answer = a.requestSync(ask, 12, 30, TimeUnit.SECONDS);
            assertThat(answer.value).isEqualTo(42);
        }
    }

    @Test
    void autoWithoutRdmaOrFallbackSaysWhatIsMissing()
    {
        assertThatThrownBy(() -> new AutoTransportProvider(() -> NO_LIBRARY, s -> { }, "no-such-transport")
            .create(new TransportContext().ownNodeId(8)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("no-such-transport");
    }
}
