package io.sirocco.transport;

/** Node ids are 16-bit: 0 to 65535, held in an {@code int}. */
public final class NodeIds
{
    public static final int INVALID = -1;
    public static final int MAX = 0xFFFF;
    public static final int COUNT = MAX + 1;

    private NodeIds()
    {
    }

    public static int check(final int nodeId)
    {
        if (nodeId < 0 || nodeId > MAX)
        {
            throw new IllegalArgumentException("node id must be in [0, 65535]: " + nodeId);
        }
        return nodeId;
    }
}
