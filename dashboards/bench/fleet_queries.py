#!/usr/bin/env python3
"""Times every Fleet overview query against a Prometheus holding a synthetic fleet.

Queries come from the dashboard JSON with Grafana's "All" values (job=~".*", instance=~".*").
Instant queries run at END, range queries over the MINUTES before END at a 15 s step (what a
1,500 px wide panel over that range asks for). Each runs REPEATS times; the median is reported.
Two extra rows run the copy-to-heap top-k from the raw counters, as it would cost without the
recording rules.

usage: fleet_queries.py PROMETHEUS_URL DASHBOARD_JSON END_EPOCH_SECONDS MINUTES REPEATS
"""
import json
import statistics
import sys
import time
import urllib.parse
import urllib.request

url, dashboard, end, minutes, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
values = {'$__rate_interval': '1m', '$__range': '%dm' % minutes, '$__interval': '15s', '$job': '.*', '$instance': '.*'}


def resolve(expr):
    for k in sorted(values, key=len, reverse=True):
        expr = expr.replace(k, values[k])
    return expr


def run(expr, instant):
    if instant:
        q = {'query': expr, 'time': end}
        path = '/api/v1/query'
    else:
        q = {'query': expr, 'start': end - minutes * 60, 'end': end, 'step': 15}
        path = '/api/v1/query_range'
    timings, series = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        with urllib.request.urlopen(url + path + '?' + urllib.parse.urlencode(q)) as r:
            body = json.load(r)
        timings.append((time.perf_counter() - started) * 1000)
        if body['status'] != 'success':
            raise SystemExit('query failed: %s: %s' % (expr, body))
        series = len(body['data']['result'])
    return statistics.median(timings), max(timings), series


rows = []
d = json.load(open(dashboard))
for p in d['panels']:
    for t in p.get('targets', []):
        rows.append(('panel %d %s (%s)' % (p['id'], p['title'], t['refId']), resolve(t['expr']), t.get('instant', False)))
rows.append(('raw: top 10 copy bytes/s without the rule', 'topk(10, sum by (job, instance) (rate(blockscope_copy_to_heap_bytes_total{job=~".*", instance=~".*"}[1m])))', True))
rows.append(('raw: top copy site per instance without the rule', 'topk by (job, instance) (1, sum by (job, instance, site) (rate(blockscope_copy_site_bytes_total{job=~".*", instance=~".*"}[1m])))', True))

print('| query | kind | series | median ms | max ms |')
print('|---|---|---|---|---|')
for name, expr, instant in rows:
    median, worst, series = run(expr, instant)
    print('| %s | %s | %d | %.1f | %.1f |' % (name, 'instant' if instant else 'range', series, median, worst))
