package io.sirocco.multicast.model;

/** Result codes of {@link io.sirocco.multicast.Subgroup#tryClaim(int, SlotClaim)}: non-negative is success, negative a reason. */
public final class ClaimResult
{
    /** The claim succeeded; the slot is in the {@link SlotClaim}. */
    public static final int OK = 0;
    /** The window is full: some member has not yet delivered (ORDERED) or received (UNORDERED) the oldest slot. */
    public static final int BACK_PRESSURED = -1;
    /** The view is changing (wedged) or this member is not yet in a view containing the subgroup; retry later. */
    public static final int VIEW_CHANGING = -2;
    /** This member did not register the subgroup as a writer. */
    public static final int NOT_A_WRITER = -3;
    /** The message is longer than the subgroup's {@code maxMessageBytes}. */
    public static final int TOO_LARGE = -4;
    /** The group is closed or failed. */
    public static final int CLOSED = -5;

    private ClaimResult()
    {
    }

    public static String describe(final int code)
    {
        return switch (code)
        {
            case OK -> "OK";
            case BACK_PRESSURED -> "BACK_PRESSURED";
            case VIEW_CHANGING -> "VIEW_CHANGING";
            case NOT_A_WRITER -> "NOT_A_WRITER";
            case TOO_LARGE -> "TOO_LARGE";
            case CLOSED -> "CLOSED";
            default -> "UNKNOWN(" + code + ")";
        };
    }
}
