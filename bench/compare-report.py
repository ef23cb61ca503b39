#!/usr/bin/env python3
"""The report of one bench/compare.sh run: reads OUT/runs.jsonl, prints one markdown table (figure, Sirocco median,
anchor median, ratio, goal of issue 22, met), writes it as OUT/table.json too, and plots the latency percentile
distributions of the ping runs (OUT/hist/*.hgrm, Cyclone's from its logs) as OUT/latency-shm.svg and
OUT/latency-tcp.svg.

    bench/compare-report.py OUT [--load START END] [--repeats N] [--quick]

A median is over the rounds that produced a figure; a ratio is the median of the per-round ratios of Sirocco to the
anchor measured in the same round (as bench/summarize-batch.py does). Plain python3, no third-party module.
"""
import argparse
import json
import math
import os
import re
import statistics
from collections import defaultdict

KIB = 1024


def read_runs(out):
    """{(tag, size): {repeat: run}} from runs.jsonl; a run is the line's dict, its tool JSON under 'result'."""
    runs = defaultdict(dict)
    with open(os.path.join(out, 'runs.jsonl')) as lines:
        for line in lines:
            line = line.strip()
            if line.startswith('{'):
                row = json.loads(line)
                runs[(row['tag'], row['size'])][row['repeat']] = row
    return runs


def size_name(size):
    return f'{size // KIB} KiB' if size >= KIB and size % KIB == 0 else f'{size} B'


def fmt(value, unit):
    if value is None:
        return '–'
    if unit == '/s':
        if value >= 1e6:
            return f'{value / 1e6:.2f} M/s'
        return f'{value / 1e3:.0f} k/s' if value >= 1e4 else f'{value:,.0f}/s'
    if unit == 'MB/s':
        return f'{value:,.0f} MB/s'
    return f'{value:,.0f} µs' if value >= 100 else f'{value:.3g} µs'


class Figure:
    """One row: a Sirocco figure, its anchor in the same rounds, and the goal on the ratio or the absolute value."""

    def __init__(self, name, tag, field, anchor_name, anchor_tag, anchor_field, size, unit, goal=None, lossless=False):
        self.name, self.tag, self.field, self.size, self.unit = name, tag, field, size, unit
        self.anchor_name, self.anchor_tag, self.anchor_field = anchor_name, anchor_tag, anchor_field
        self.goal = goal          # None, ('ratio<=', x), ('ratio>=', x) or ('value<=', x)
        self.lossless = lossless  # the goal also asks for 0 lost samples

    def values(self, runs, tag, field):
        out = {}
        for repeat, run in runs.get((tag, self.size), {}).items():
            result = run.get('result') or {}
            if field == 'mb_per_s' and 'samples_per_s' in result:   # Sirocco's bandwidth at this sample size
                out[repeat] = result['samples_per_s'] * self.size / 1e6
            elif isinstance(result.get(field), (int, float)):
                out[repeat] = float(result[field])
        return out

    def evaluate(self, runs):
        mine = self.values(runs, self.tag, self.field)
        anchor = self.values(runs, self.anchor_tag, self.anchor_field) if self.anchor_tag else {}
        pairs = [mine[r] / anchor[r] for r in mine if anchor.get(r)]
        row = {
            'figure': self.name, 'size': self.size, 'unit': self.unit, 'anchor': self.anchor_name,
            'sirocco': [mine[r] for r in sorted(mine)], 'anchor_runs': [anchor[r] for r in sorted(anchor)],
            'sirocco_median': statistics.median(mine.values()) if mine else None,
            'anchor_median': statistics.median(anchor.values()) if anchor else None,
            'ratio': statistics.median(pairs) if pairs else None, 'pairs': len(pairs),
        }
        lost = [(run.get('result') or {}).get('lost') for run in runs.get((self.tag, self.size), {}).values()]
        row['lost'] = sum(x for x in lost if isinstance(x, int)) if self.lossless else None
        row['goal'], row['met'] = self.judge(row)
        return row

    def judge(self, row):
        if self.goal is None:
            return '–', '–'
        kind, limit = self.goal
        text = {'ratio<=': f'≤ {limit:g}×', 'ratio>=': f'≥ {limit:g}×', 'value<=': f'≤ {limit:g} µs'}[kind]
        if self.lossless:
            text += ', 0 lost'
        value = row['sirocco_median'] if kind == 'value<=' else row['ratio']
        if value is None:
            return text, 'no data'
        ok = value <= limit if kind in ('ratio<=', 'value<=') else value >= limit
        if self.lossless and row['lost']:
            ok = False
        return text, 'yes' if ok else '**no**'


def figures(sizes):
    rows = []
    for size in sizes:
        s = size_name(size)
        headline = size == 64   # issue 22's latency goals are quoted at 64 B
        rows += [
            Figure(f'shm ping one-way p50, {s}', 'ping-shm', 'p50_us', 'raw shm', 'raw-shm', 'p50_us', size, 'µs',
                   ('value<=', 1) if headline else None),
            Figure(f'shm ping one-way p99, {s}', 'ping-shm', 'p99_us', 'raw shm', 'raw-shm', 'p99_us', size, 'µs',
                   ('value<=', 5) if headline else None),
            Figure(f'shm ping one-way p99.9, {s}', 'ping-shm', 'p999_us', 'raw shm', 'raw-shm', 'p999_us', size, 'µs',
                   ('value<=', 20) if headline else None),
            Figure(f'shm ping one-way p50 vs Cyclone (udp), {s}', 'ping-shm', 'p50_us', 'Cyclone', 'ddsperf-ping',
                   'p50_us', size, 'µs'),
            Figure(f'tcp ping one-way p50, {s}', 'ping-tcp', 'p50_us', 'raw TCP', 'raw-tcp', 'p50_us', size, 'µs',
                   ('ratio<=', 1.2) if headline else None),
            Figure(f'tcp ping one-way p99, {s}', 'ping-tcp', 'p99_us', 'raw TCP', 'raw-tcp', 'p99_us', size, 'µs',
                   ('ratio<=', 2) if headline else None),
            Figure(f'tcp ping one-way p50 with a CPU hog, {s}', 'ping-tcp-hog', 'p50_us', 'raw TCP, hog', 'raw-tcp-hog',
                   'p50_us', size, 'µs', ('ratio<=', 1.2) if headline else None),
            Figure(f'tcp ping one-way p99 with a CPU hog, {s}', 'ping-tcp-hog', 'p99_us', 'raw TCP, hog', 'raw-tcp-hog',
                   'p99_us', size, 'µs', ('ratio<=', 2) if headline else None),
            Figure(f'Cyclone ping one-way p50 (udp), {s}', 'ddsperf-ping', 'p50_us', 'raw UDP', 'raw-udp', 'p50_us',
                   size, 'µs'),
            Figure(f'reliable pub/sub over shm, {s}', 'pub-shm', 'samples_per_s', 'Cyclone', 'ddsperf-pub',
                   'samples_per_s', size, '/s', {64: ('ratio>=', 10), KIB: ('ratio>=', 5)}.get(size),
                   lossless=size in (64, KIB)),
            Figure(f'reliable pub/sub over tcp, {s}', 'pub-tcp', 'samples_per_s', 'Cyclone', 'ddsperf-pub',
                   'samples_per_s', size, '/s'),
        ]
        if size == 64 * KIB:
            rows.append(Figure(f'pub/sub over shm bandwidth, {s}', 'pub-shm', 'mb_per_s', 'memcpy', 'memcpy',
                               'mb_per_s', size, 'MB/s', ('ratio>=', 0.5)))
    return rows


def markdown(rows, runs, args):
    lines = ['| figure | Sirocco median | anchor median | ratio | goal | met |', '|---|---|---|---|---|---|']
    for row in rows:
        mine = fmt(row['sirocco_median'], row['unit'])
        if row['lost']:
            mine += f' (lost {row["lost"]})'
        anchor = f'{fmt(row["anchor_median"], row["unit"])} ({row["anchor"]})'
        ratio = '–' if row['ratio'] is None else (f'{row["ratio"]:,.0f}×' if row['ratio'] >= 100 else
                                                  f'{row["ratio"]:.3g}×')
        lines.append(f'| {row["figure"]} | {mine} | {anchor} | {ratio} | {row["goal"]} | {row["met"]} |')
    lines.append('')
    lines.append(f'{args.repeats} round(s){" (--quick: not figures, a test of the script)" if args.quick else ""}; '
                 f'load average {" → ".join(args.load) if args.load else "not recorded"}; ratios are medians of the '
                 'per-round ratios; one-way latency = RTT/2; Cyclone runs over UDP loopback.')
    failed = sorted(f'{tag} {size_name(size)} round {r} ({exit_text(run.get("rc"))})'
                    for (tag, size), by in runs.items() for r, run in by.items() if run.get('result') is None)
    if failed:
        lines.append(f'Runs without a figure: {", ".join(failed)}; their logs are in raw/.')
    return '\n'.join(lines)


def exit_text(rc):
    return 'timed out' if rc == 124 else f'exit {rc}'


# ---- plots

def read_hgrm(path):
    """(percentile, value_us) points of an HdrHistogram percentile distribution file."""
    points = []
    with open(path) as text:
        for line in text:
            parts = line.split()
            if len(parts) >= 3 and not line.startswith('#'):
                try:
                    value, percentile, count = float(parts[0]), float(parts[1]), int(parts[2])
                except ValueError:
                    continue
                points.append((percentile, value, count))
    if not points:
        return []
    total = points[-1][2]
    # The 100% line has no finite 1/(1-p): place the maximum at 1 - 1/count, as one sample in `count`.
    return [(p if p < 1 else 1 - 1 / max(total, 2), v) for p, v, _ in points]


def ddsperf_points(path):
    """Cyclone prints only p50/p90/p99/max per second: their medians over the seconds after the first."""
    seconds = []
    with open(path) as text:
        for line in text:
            m = re.search(r' 50% ([0-9.]+)us 90% ([0-9.]+)us 99% ([0-9.]+)us max ([0-9.]+)us cnt ([0-9]+)', line)
            if m:
                seconds.append([float(x) for x in m.groups()])
    seconds = seconds[1:]
    if not seconds:
        return []
    med = [statistics.median(s[i] for s in seconds) for i in range(4)]
    total = sum(s[4] for s in seconds)
    return [(0.5, med[0]), (0.9, med[1]), (0.99, med[2]), (1 - 1 / max(total, 2), max(s[3] for s in seconds))]


def median_round(runs, tag, size):
    """The round whose p50 is the median of the tag's rounds (its distribution is the one plotted)."""
    by = [(run['result']['p50_us'], r) for r, run in runs.get((tag, size), {}).items()
          if isinstance((run.get('result') or {}).get('p50_us'), (int, float))]
    if not by:
        return None
    by.sort()
    return by[(len(by) - 1) // 2][1]


def curves(out, runs, transport, sizes):
    result = []
    dashes = {0: '', 1: '7,4', 2: '2,3'}
    for index, size in enumerate(sizes):
        dash = dashes.get(index, '1,1')
        for label, tag, color in ((f'Sirocco {transport}', f'ping-{transport}', '#1f77b4'),
                                  (f'raw {transport.upper()}' if transport == 'tcp' else 'raw shm', f'raw-{transport}',
                                   '#7f7f7f')):
            r = median_round(runs, tag, size)
            path = os.path.join(out, 'hist', f'{tag}-{size}-{r}.hgrm')
            if r is not None and os.path.exists(path):
                result.append((f'{label}, {size_name(size)}', color, dash, read_hgrm(path), False))
        r = median_round(runs, 'ddsperf-ping', size)
        if r is not None:
            points = ddsperf_points(os.path.join(out, runs[('ddsperf-ping', size)][r]['log']))
            if points:
                result.append((f'Cyclone udp, {size_name(size)} (p50/p90/p99/max only)', '#ff7f0e', dash, points,
                               True))
    return result


def svg(title, series):
    width, height, left, right, top, bottom = 1240, 560, 80, 370, 50, 70   # the legend to the right of the plot
    pw, ph = width - left - right, height - top - bottom
    xs = [1 / (1 - p) for _, _, _, pts, _ in series for p, _ in pts]
    ys = [v for _, _, _, pts, _ in series for _, v in pts if v > 0]
    if not xs or not ys:
        return None
    x_max = math.log10(max(10.0, max(xs)))
    y_lo, y_hi = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    y_hi = max(y_hi, y_lo + 1)

    def X(p):
        return left + pw * math.log10(1 / (1 - p)) / x_max

    def Y(v):
        return top + ph * (1 - (math.log10(max(v, 10 ** y_lo)) - y_lo) / (y_hi - y_lo))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             'font-size="12">', f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">{title}</text>']
    for decade in range(0, int(math.floor(x_max)) + 1):
        x = left + pw * decade / x_max
        label = '0%' if decade == 0 else f'{100 - 100 / 10 ** decade:.{max(decade - 2, 0)}f}%'
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#ddd"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{label}</text>')
    for decade in range(y_lo, y_hi + 1):
        y = Y(10 ** decade)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{f"{10 ** decade:,}" if decade >= 0 else f"{10 ** decade:g}"}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
    parts.append(f'<text x="{left + pw / 2}" y="{height - 22}" text-anchor="middle">percentile (log scale of '
                 '1/(1-percentile), as HdrHistogram plots)</text>')
    parts.append(f'<text transform="translate(20,{top + ph / 2}) rotate(-90)" text-anchor="middle">one-way latency, '
                 'µs (log scale)</text>')
    for i, (label, color, dash, points, markers) in enumerate(series):
        path = ' '.join(f'{X(p):.1f},{Y(v):.1f}' for p, v in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ''
        parts.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="1.8"{dash_attr}/>')
        if markers:
            parts += [f'<circle cx="{X(p):.1f}" cy="{Y(v):.1f}" r="3.5" fill="{color}"/>' for p, v in points]
        lx, ly = left + pw + 16, top + 12 + 18 * i
        parts.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 30}" y2="{ly - 4}" stroke="{color}" '
                     f'stroke-width="1.8"{dash_attr}/>')
        parts.append(f'<text x="{lx + 36}" y="{ly}">{label}</text>')
    parts.append('</svg>')
    return '\n'.join(parts) + '\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('out')
    parser.add_argument('--load', nargs=2, metavar=('START', 'END'))
    parser.add_argument('--repeats', type=int, default=0)
    parser.add_argument('--quick', action='store_true')
    args = parser.parse_args()
    runs = read_runs(args.out)
    sizes = sorted({size for _, size in runs})
    rows = [f.evaluate(runs) for f in figures(sizes)]
    rows = [row for row in rows if row['sirocco'] or row['anchor_runs']]   # e.g. the hog rows without --hog
    print(markdown(rows, runs, args))
    with open(os.path.join(args.out, 'table.json'), 'w') as out:
        json.dump({'repeats': args.repeats, 'quick': args.quick, 'load': args.load, 'rows': rows}, out, indent=1)
    for transport in ('shm', 'tcp'):
        drawing = svg(f'one-way latency over {transport}: Sirocco ping, the raw {transport} floor, Cyclone ddsperf '
                      f'(udp)', curves(args.out, runs, transport, sizes))
        if drawing:
            with open(os.path.join(args.out, f'latency-{transport}.svg'), 'w') as out:
                out.write(drawing)


if __name__ == '__main__':
    main()
