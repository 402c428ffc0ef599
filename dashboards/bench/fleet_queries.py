#!/usr/bin/env python3
"""Times every Fleet overview query against one or more Prometheus-API endpoints holding a synthetic fleet.

Queries come from the dashboard JSON with Grafana's "All" value (job=~".*").
Instant queries run at END, range queries over the MINUTES before END at a 15 s step (what a
1,500 px wide panel over that range asks for). Each runs REPEATS times (the reference rows without
rules at most 5); p50, p95 and the maximum are reported. Extra rows run the stats, top-10 tables and
cluster trends without their per-job rules (every server's series on each refresh) and the copy-to-heap
top-k from the raw counters, as they would cost without the recording rules.

With several endpoints (NAME=URL,NAME=URL: one Prometheus and a Thanos Query in front of the same
series, say) the repeats alternate between them, so load from elsewhere on the machine hits both
alike, and a last column says whether every endpoint answered the same: same series (ignoring the
`cluster` and `replica` labels a querier adds) with the same values to 9 significant digits. Exits 1
(after the table) when one did not.

usage: fleet_queries.py URL|NAME=URL[,NAME=URL...] DASHBOARD_JSON END_EPOCH_SECONDS MINUTES REPEATS [--json FILE]
"""
import json
import os
import statistics
import sys
import time
import urllib.parse
import urllib.request

from fleet_stats import quantile

args = sys.argv[1:]
json_out = None
if '--json' in args:
    i = args.index('--json')
    json_out = args[i + 1]
    del args[i:i + 2]
endpoints, dashboard, end, minutes, repeats = args[0], args[1], int(args[2]), int(args[3]), int(args[4])
arms = [e.split('=', 1) if '=' in e else ['prometheus', e] for e in endpoints.split(',')]
values = {'$__rate_interval': '1m', '$__range': '%dm' % minutes, '$__interval': '15s', '$job': '.*'}
# Labels a querier in front of HA pairs adds (external labels); the same series on one Prometheus lacks them.
added_labels = ('cluster', 'replica')


def resolve(expr):
    for k in sorted(values, key=len, reverse=True):
        expr = expr.replace(k, values[k])
    return expr


def request(url, expr, instant):
    if instant:
        q = {'query': expr, 'time': end}
        path = '/api/v1/query'
    else:
        q = {'query': expr, 'start': end - minutes * 60, 'end': end, 'step': 15}
        path = '/api/v1/query_range'
    started = time.perf_counter()
    with urllib.request.urlopen(url + path + '?' + urllib.parse.urlencode(q), timeout=300) as r:
        body = json.load(r)
    elapsed = (time.perf_counter() - started) * 1000
    if body['status'] != 'success':
        raise SystemExit('query failed on %s: %s: %s' % (url, expr, body))
    return elapsed, body['data']['result']


def canonical(result):
    """The answer as a comparable value: series without the querier's labels, values to 9 digits."""
    out = []
    for s in result:
        labels = tuple(sorted((k, v) for k, v in s['metric'].items() if k not in added_labels))
        points = s.get('values') or [s['value']]
        out.append((labels, tuple((float(t), '%.9g' % float(v)) for t, v in points)))
    return sorted(out)


def run(expr, instant, runs):
    timings = {name: [] for name, _ in arms}
    answers = {}
    for _ in range(runs):
        for name, url in arms:
            elapsed, result = request(url, expr, instant)
            timings[name].append(elapsed)
            answers[name] = result
    first = canonical(answers[arms[0][0]])
    same = 'yes'
    for name, _ in arms[1:]:
        other = canonical(answers[name])
        if other != first:
            # topk over tied values may pick different servers of the same value: same values, other labels
            same = 'tied' if sorted(p for _, p in other) == sorted(p for _, p in first) else 'NO'
    return timings, len(answers[arms[0][0]]), same


rows = []
d = json.load(open(dashboard))
for p in d['panels']:
    for t in p.get('targets', []):
        rows.append(('panel %d %s (%s)' % (p['id'], p['title'], t['refId']), resolve(t['expr']), t.get('instant', False)))
# the stats, tables and cluster trends without the per-job rules: every instance's series on every refresh
rows.append(('panel 2 without the per-job rule', 'count(up{job=~".*", instance=~".*"} == 1) or vector(0)', True))
rows.append(('panel 7 without the per-job rule', 'max(instance:blockscope_gc_pause_seconds:p99_rate5m{job=~".*", instance=~".*"})', True))
rows.append(('panel 11 without the per-job top 10', 'topk(10, instance:blockscope_copy_to_heap_bytes:rate1m{job=~".*", instance=~".*"})', True))
rows.append(('panel 14 without the per-job top 10', 'topk(10, sum by (job, instance) (blockscope_block_refs_outstanding{job=~".*", instance=~".*"}))', True))
rows.append(('panel 23 (B) without the per-job rule', 'quantile(0.5, instance:blockscope_gc_pause_seconds:p99_rate5m{job=~".*", instance=~".*"})', False))
rows.append(('panel 21 without the per-job rule', 'sum by (component) (instance_component:blockscope_copy_to_heap_bytes:rate1m{job=~".*", instance=~".*"})', False))
rows.append(('panel 22 without the per-job rule', 'sum by (tier, result) (rate(blockscope_block_cache_gets_total{job=~".*", instance=~".*"}[1m]))', False))
rows.append(('panel 24 without the per-job rule', 'sum by (tier) (blockscope_block_refs_outstanding{job=~".*", instance=~".*"})', False))
rows.append(('raw: top 10 copy bytes/s without the rule', 'topk(10, sum by (job, instance) (rate(blockscope_copy_to_heap_bytes_total{job=~".*", instance=~".*"}[1m])))', True))
rows.append(('raw: top copy site per instance without the rule', 'topk by (job, instance) (1, sum by (job, instance, site) (rate(blockscope_copy_site_bytes_total{job=~".*", instance=~".*"}[1m])))', True))

head = '| query | kind | series |' + ''.join(' %s p50 ms | %s p95 ms | %s max ms |' % (n, n, n) for n, _ in arms)
print(head + (' same answer |' if len(arms) > 1 else ''))
print('|---|---|---:|' + '---:|---:|---:|' * len(arms) + ('---|' if len(arms) > 1 else ''))
records = []
for name, expr, instant in rows:
    # the rows without rules are the reference, not the dashboard: 5 runs are enough to see their cost
    runs = repeats if name.startswith('panel') and 'without' not in name else min(repeats, 5)
    timings, series, same = run(expr, instant, runs)
    cells = ''.join(' %.1f | %.1f | %.1f |' % (statistics.median(timings[n]), quantile(0.95, timings[n]), max(timings[n]))
                    for n, _ in arms)
    print('| %s | %s | %d |%s%s' % (name, 'instant' if instant else 'range', series, cells,
                                    ' %s |' % same if len(arms) > 1 else ''), flush=True)
    records.append({'query': name, 'kind': 'instant' if instant else 'range', 'series': series, 'same': same, 'runs': runs,
                    'ms': {n: {'p50': round(statistics.median(timings[n]), 1), 'p95': round(quantile(0.95, timings[n]), 1),
                               'max': round(max(timings[n]), 1)} for n, _ in arms}})
differ = [r['query'] for r in records if r['same'] == 'NO']
if json_out:
    cpu = next((line.split(':', 1)[1].strip() for line in open('/proc/cpuinfo') if line.startswith('model name')), '?')
    meta = {'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()), 'command': os.environ.get('FLEET_BENCH_COMMAND', ''),
            'machine': '%s, %d cores (load average %.1f at the end)' % (cpu, os.cpu_count(), os.getloadavg()[0]),
            'instances': int(os.environ.get('FLEET_BENCH_INSTANCES', '0')), 'series': int(os.environ.get('FLEET_BENCH_SERIES', '0')),
            'minutes': minutes, 'repeats': repeats, 'arms': [n for n, _ in arms]}
    with open(json_out, 'w') as f:  # one line per query: small enough to keep under docs/results/
        f.write(json.dumps(meta)[:-1] + ', "queries": [\n')
        f.write(',\n'.join(json.dumps(r) for r in records) + '\n]}\n')
if differ:
    raise SystemExit('answers differ between %s: %s' % (' and '.join(n for n, _ in arms), '; '.join(differ)))
