package io.sirocco.ib.msg;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaUnavailableException;
import io.sirocco.transport.MessagingService;
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
    void autoWithoutRdmaOrFallbackSaysWhatIsMissing()
    {
        assertThatThrownBy(() -> new AutoTransportProvider(() -> NO_LIBRARY, s -> { }, "no-such-transport")
            .create(new TransportContext().ownNodeId(8)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("no-such-transport");
    }
}
