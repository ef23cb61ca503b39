package io.sirocco.examples.cli.mcast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code mcast-bench} reports, computed from every member's result: the median rates over members, the mean
 * batch sizes over all members, whether every member delivered the same sequence (digests), and the time from a kill
 * to the median survivor's next view.
 *
 * @param delivered     messages each member delivered (the first member's count).
 * @param msgsPerS      median over members of delivered messages per second.
 * @param othersPerS    the same for the senders {@code --delayed} does not designate.
 * @param sendBatch     mean messages per send batch.
 * @param recvBatch     mean messages per receive batch.
 * @param deliverBatch  mean messages per delivery batch.
 * @param nullsSent     null messages sent by all members.
 * @param pushes        row pushes by all members.
 * @param digestsMatch  every member delivered the same messages in the same order.
 * @param viewChangeMs  kill to the median survivor's view install, or -1 without a kill.
 */
public record McastTotals(long delivered, double msgsPerS, double othersPerS, double sendBatch, double recvBatch,
                          double deliverBatch, long nullsSent, long pushes, boolean digestsMatch, long viewChangeMs)
{
    public static McastTotals of(final List<McastMemberResult> results, final long killEpochMs)
    {
        final double[] rates = new double[results.size()];
        final double[] others = new double[results.size()];
        final long[] sums = new long[8];
        boolean match = !results.isEmpty();
        final long digest = results.isEmpty() ? 0 : results.get(0).digest();
        final long count = results.isEmpty() ? 0 : results.get(0).delivered();
        final List<Long> installs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++)
        {
            final McastMemberResult r = results.get(i);
            rates[i] = r.delivered() / Math.max(1e-9, (r.lastNs() - r.firstNs()) / 1e9);
            others[i] = r.deliveredOthers() / Math.max(1e-9, (r.lastOthersNs() - r.firstOthersNs()) / 1e9);
            final long[] add = {r.sent(), r.sendBatches(), r.received(), r.recvBatches(), r.deliveredAll(),
                r.deliverBatches(), r.nulls(), r.pushes()};
            for (int k = 0; k < sums.length; k++)
            {
                sums[k] += add[k];
            }
            match &= r.digest() == digest && r.digest() != 0 && r.delivered() == count;
            if (r.viewInstalledEpochMs() > 0)
            {
                installs.add(r.viewInstalledEpochMs());
            }
        }
        final long viewChangeMs = killEpochMs > 0 && !installs.isEmpty()
            ? installs.stream().sorted().toList().get(installs.size() / 2) - killEpochMs : -1;
        return new McastTotals(count, median(rates), median(others), ratio(sums[0], sums[1]), ratio(sums[2], sums[3]),
            ratio(sums[4], sums[5]), sums[6], sums[7], match, viewChangeMs);
    }

    private static double ratio(final long a, final long b)
    {
        return b == 0 ? 0 : (double)a / b;
    }

    static double median(final double[] v)
    {
        if (v.length == 0)
        {
            return 0;
        }
        final double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
