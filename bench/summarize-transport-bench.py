import json, statistics, collections
rows=[json.loads(l) for l in open(__import__('sys').argv[1] if len(__import__('sys').argv) > 1 else '/tmp/transport-bench-results.jsonl') if l.strip().startswith('{')]
print("\n".join(r["uptime"] for r in rows if "uptime" in r))
raw=[r for r in rows if r.get('tool')=='raw-java']
rawrtt=[2*r['p50_us'] for r in raw]
if rawrtt:
    print("raw tcp one-way p50:", [r['p50_us'] for r in raw], "-> rtt median %.2f us" % statistics.median(rawrtt))
g=collections.defaultdict(list)
for r in rows:
    if r.get("tool") or "uptime" in r: continue
    k=(r['transport'],r['mode'],r['size'],r['threads'],r['threading'])
    g[k].append(r)
for k,v in sorted(g.items()):
    if k[1]=='rtt':
        p50=[x['rtt_p50_us'] for x in v]; p99=[x['rtt_p99_us'] for x in v]
        m=statistics.median(p50)
        extra = " ratio to raw rtt %.2f" % (m/statistics.median(rawrtt)) if k[0]=='tcp' and rawrtt else ""
        print(k, "p50", p50, "median %.2f" % m, "p99 median %.1f" % statistics.median(p99), extra)
    else:
        mps=[x['msgs_per_s'] for x in v]; mb=[x['mb_per_s'] for x in v]
        print(k, "msgs/s", mps, "median %.0f" % statistics.median(mps), "MB/s median %.1f" % statistics.median(mb))
