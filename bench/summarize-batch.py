#!/usr/bin/env python3
"""Summarizes a bench/integration-batch.sh output: the median of each figure and its ratio to the reference of the
same batch (the median of the per-round pair ratios, rounds paired in order).

    bench/summarize-batch.py [/tmp/sirocco-integration-batch.jsonl]
"""
import json
import statistics
import sys
from collections import defaultdict

path = sys.argv[1] if len(sys.argv) > 1 else '/tmp/sirocco-integration-batch.jsonl'
runs = defaultdict(list)
for line in open(path):
    line = line.strip()
    if line.startswith('{'):
        row = json.loads(line)
        if row.get('result') is not None:
            runs[row['tag']].append(row['result'])


def values(tag, field, scale=1.0):
    return [r[field] * scale for r in runs.get(tag, []) if isinstance(r.get(field), (int, float))]


def median(xs):
    return statistics.median(xs) if xs else None


def fmt(x):
    return '-' if x is None else (f'{x:,.0f}' if abs(x) >= 1000 else f'{x:.3g}')


# (figure, tag, field, reference tag, reference field, reference scale)
FIGURES = [
    ('transport tcp rtt p50 (us) vs raw tcp rtt', 'transport-tcp', 'rtt_p50_us', 'raw-tcp', 'p50_us', 2.0),
    ('transport loopback rtt p50 (us)', 'transport-loopback', 'rtt_p50_us', None, None, 1.0),
    ('DDS ping shm p50 one-way (us) vs Cyclone', 'dds-ping-shm', 'p50_us', 'ddsperf-lat', 'p50_us', 1.0),
    ('DDS ping shm p99 one-way (us) vs Cyclone', 'dds-ping-shm', 'p99_us', 'ddsperf-lat', 'p99_us', 1.0),
    ('DDS ping shm p50 vs raw shm', 'dds-ping-shm', 'p50_us', 'raw-shm', 'p50_us', 1.0),
    ('DDS ping tcp p50 one-way (us) vs raw tcp', 'dds-ping-tcp', 'p50_us', 'raw-tcp', 'p50_us', 1.0),
    ('DDS ping tcp p99 one-way (us) vs raw tcp', 'dds-ping-tcp', 'p99_us', 'raw-tcp', 'p99_us', 1.0),
    ('DDS pub/sub shm 1 KiB samples/s vs Cyclone', 'dds-pub-shm', 'samples_per_s', 'ddsperf-thr', 'samples_per_s', 1.0),
    ('mcast tcp batching on vs off (msgs/s)', 'mcast-tcp-batch-on', 'msgs_per_s', 'mcast-tcp-batch-off', 'msgs_per_s', 1.0),
    ('mcast shm others, one sender delayed 100 us', 'mcast-shm-delayed', 'others_msgs_per_s', 'mcast-shm-undelayed',
     'msgs_per_s', 1.0),
    ('mcast shm 1 active of 10 subgroups vs 1', 'mcast-shm-10sg-1active', 'msgs_per_s', 'mcast-shm-1sg', 'msgs_per_s', 1.0),
    ('mcast tcp view change after a kill (ms)', 'mcast-tcp-kill', 'view_change_ms', None, None, 1.0),
    ('log-bench 64 B entries/s', 'log-none', 'entries_per_s', None, None, 1.0),
    ('log-bench recovery of 1 M entries (ms)', 'log-none', 'recover_ms', None, None, 1.0),
]

print(f'{"figure":48} {"runs":>30} {"median":>10} {"reference":>10} {"ratio":>8}')
for name, tag, field, ref_tag, ref_field, scale in FIGURES:
    xs = values(tag, field)
    refs = values(ref_tag, ref_field, scale) if ref_tag else []
    ratio = median([x / r for x, r in zip(xs, refs) if r]) if refs else None
    shown = ' / '.join(fmt(x) for x in xs)
    print(f'{name:48} {shown:>30} {fmt(median(xs)):>10} {fmt(median(refs)):>10} '
          f'{"-" if ratio is None else f"{ratio:.2f}x":>8}')

lost = [r.get('lost') for tag in runs for r in runs[tag] if 'lost' in r]
digests = [r.get('digests_match') for tag in runs for r in runs[tag] if 'digests_match' in r]
print(f'lost in every pub/sub run: {lost}; digests_match in every mcast run: {digests}')
