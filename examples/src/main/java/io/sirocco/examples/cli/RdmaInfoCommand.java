package io.sirocco.examples.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import io.sirocco.ib.RdmaAvailability;
import io.sirocco.ib.RdmaInventory;
import io.sirocco.ib.RdmaSelfTest;
import io.sirocco.ib.verbs.RdmaDevice;
import io.sirocco.ib.verbs.Verbs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sirocco rdma-info}: the RDMA devices this host offers through libibverbs, their ports, link layers, MTUs,
 * LIDs and GID tables, or a "no RDMA device" message (exit code {@value #EXIT_NO_RDMA}) that says what is missing.
 */
@Command(
    name = "rdma-info",
    mixinStandardHelpOptions = true,
    description = {
        "Lists RDMA devices (libibverbs): ports, link layer, GIDs, MTU.",
        "Exit code 3 when there is no RDMA device or no libibverbs."})
public final class RdmaInfoCommand implements Callable<Integer>
{
    /** Exit code when the host cannot do RDMA. */
    public static final int EXIT_NO_RDMA = io.sirocco.examples.cli.config.ExitCodes.UNAVAILABLE;

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "End the output with one JSON line.")
    private boolean json;

    @Option(names = "--self-test", description = {
        "Also connect two queue pairs on the device to each other and exercise RDMA WRITE, INLINE, SEND/RECV",
        "and polling; exit 1 if a check fails. The first thing to run on new hardware."})
    private boolean selfTest;

    @Option(names = "--device", defaultValue = "", description = "Device for --self-test (default: the first).")
    private String device;

    @Option(names = "--port", defaultValue = "1", description = "Port for --self-test (default ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--gid-index", defaultValue = "0",
        description = "Source GID index for --self-test (RoCE: the RoCE v2 entry; default ${DEFAULT-VALUE}).")
    private int gidIndex;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final RdmaAvailability availability = RdmaAvailability.probe();
        if (!availability.available())
        {
            out.println("no RDMA device: missing " + availability.missing());
            if (json)
            {
                out.println("{\"devices\":[],\"libraryLoaded\":" + availability.libraryLoaded() + ",\"missing\":\""
                    + escape(availability.missing()) + "\"}");
            }
            out.flush();
            return EXIT_NO_RDMA;
        }
        final List<RdmaInventory.DeviceInfo> devices = RdmaInventory.describe(availability);
        final StringBuilder jsonDevices = new StringBuilder();
        for (final RdmaInventory.DeviceInfo device : devices)
        {
            separate(jsonDevices).append(printDevice(out, device));
        }
        int exit = 0;
        String selfTestJson = "";
        if (selfTest)
        {
            final RdmaSelfTest.Result result = RdmaSelfTest.run(device, port, gidIndex, 1000);
            out.println("self-test: " + (result.passed() ? "PASSED" : "FAILED"));
            result.lines().forEach(line -> out.println("  " + line));
            selfTestJson = ",\"selfTest\":" + result.passed();
            exit = result.passed() ? 0 : 1;
        }
        if (json)
        {
            out.println("{\"devices\":[" + jsonDevices + "],\"libraryLoaded\":true,\"missing\":\"\""
                + selfTestJson + "}");
        }
        out.flush();
        return exit;
    }

    /** Prints one device and its ports; returns the device's JSON object. */
    private static String printDevice(final PrintWriter out, final RdmaInventory.DeviceInfo device)
    {
        out.printf("device %s  guid %016x  firmware %s%n", device.name(), device.guid(), device.firmware());
        if (!device.error().isEmpty())
        {
            out.println("  cannot query: " + device.error());
        }
        final StringBuilder jsonPorts = new StringBuilder();
        for (final RdmaDevice.PortInfo port : device.ports())
        {
            out.printf("  port %d  state %s  link layer %s  active MTU %d  max MTU %d  LID %d%n",
                port.portNum(), Verbs.portStateName(port.state()), Verbs.linkLayerName(port.linkLayer()),
                Verbs.mtuBytes(port.activeMtu()), Verbs.mtuBytes(port.maxMtu()), port.lid());
            for (final String gid : port.gids())
            {
                out.println("    gid " + gid);
            }
            separate(jsonPorts).append("{\"port\":").append(port.portNum())
                .append(",\"state\":\"").append(Verbs.portStateName(port.state()))
                .append("\",\"linkLayer\":\"").append(Verbs.linkLayerName(port.linkLayer()))
                .append("\",\"activeMtu\":").append(Verbs.mtuBytes(port.activeMtu()))
                .append(",\"maxMtu\":").append(Verbs.mtuBytes(port.maxMtu()))
                .append(",\"lid\":").append(port.lid())
                .append(",\"gids\":").append(port.gids().size()).append('}');
        }
        return "{\"name\":\"" + escape(device.name()) + "\",\"guid\":\"" + String.format("%016x", device.guid())
            + "\",\"error\":\"" + escape(device.error()) + "\",\"ports\":[" + jsonPorts + "]}";
    }

    private static StringBuilder separate(final StringBuilder json)
    {
        if (!json.isEmpty())
        {
            json.append(',');
        }
        return json;
    }

    private static String escape(final String s)
    {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
