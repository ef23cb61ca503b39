package io.sirocco.tests.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import io.sirocco.transport.MessagingService;
import io.sirocco.transport.TransportContext;

/**
 * A transport node in its own process for the fault tests: {@code TransportPeerMain <nodeId> <port>}. Prints
 * {@code READY} once listening and then serves until killed; each {@code STATS} line on its standard input is
 * answered with {@code STATS <statistics>} on its standard output.
 */
public final class TransportPeerMain
{
    private TransportPeerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int nodeId = Integer.parseInt(args[0]);
        final int port = Integer.parseInt(args[1]);
        final TransportContext context = new TransportContext().ownNodeId(nodeId).transport("nio");
        context.addressMap().put(nodeId, "127.0.0.1", port);
        final MessagingService node = MessagingService.start(context);
        EchoMessages.register(node);
        System.out.println("READY");
        System.out.flush();
        final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = commands.readLine()) != null)
        {
            if (line.equals("STATS"))
            {
                System.out.println("STATS " + node.statistics());
                System.out.flush();
            }
        }
        Thread.currentThread().join();
    }
}
