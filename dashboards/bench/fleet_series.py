#!/usr/bin/env python3
"""Writes OpenMetrics text for a synthetic fleet, for `promtool tsdb create-blocks-from openmetrics`.

Every instance exports the series the Fleet overview reads (recording-rule outputs, outstanding
references, getBlock counters, read-path mode, build info, up) plus the raw copy counters the copy
rules are computed from, so a query over the rules can be compared with the same query over raw series.

usage: fleet_series.py INSTANCES MINUTES END_EPOCH_SECONDS > fleet.om
"""
import random
import sys

instances, minutes, end = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
step = 15
times = list(range(end - minutes * 60, end + 1, step))
rnd = random.Random(7)
hosts = ['host%04d:9404' % i for i in range(instances)]
out = sys.stdout.write


def gauge(name, labels_of, value_of):
    out('# TYPE %s gauge\n' % name)
    for h in hosts:
        for labels in labels_of(h):
            base = value_of(h)
            lbl = ','.join(['job="blockscope"', 'instance="%s"' % h] + ['%s="%s"' % kv for kv in labels])
            for t in times:
                out('%s{%s} %.6g %d\n' % (name, lbl, base * (0.9 + 0.2 * rnd.random()), t))


def counter(family, labels_of, rate_of):
    out('# TYPE %s counter\n' % family)
    for h in hosts:
        for labels in labels_of(h):
            rate, v = rate_of(h), 0.0
            lbl = ','.join(['job="blockscope"', 'instance="%s"' % h] + ['%s="%s"' % kv for kv in labels])
            for t in times:
                v += rate * step * (0.5 + rnd.random())
                out('%s_total{%s} %.0f %d\n' % (family, lbl, v, t))


one = lambda h: [()]
components = ['row', 'family', 'qualifier', 'value', 'tags', 'block']
copy_rate = {h: rnd.choice([0, 0, 0, 1e5, 5e6, 5e7]) for h in hosts}
gauge('up', one, lambda h: 1)
gauge('blockscope_exporter_build_info', lambda h: [(('version', '0.1.0'), ('jdk', '17'))], lambda h: 1)
gauge('blockscope_read_path_mode', lambda h: [(('mode', 'zero-copy'),)], lambda h: 1)
gauge('instance:blockscope_copy_to_heap_bytes:rate1m', one, lambda h: copy_rate[h])
gauge('instance_component:blockscope_copy_to_heap_bytes:rate1m', lambda h: [(('component', c),) for c in components], lambda h: copy_rate[h] / 6)
gauge('instance:blockscope_gc_pause_seconds:p99_rate5m', one, lambda h: rnd.choice([0.005, 0.02, 0.05, 0.3]))
gauge('instance:blockscope_gc_pause_time:ratio_rate5m', one, lambda h: rnd.choice([0.001, 0.01, 0.08]))
gauge('blockscope_block_refs_outstanding', lambda h: [(('tier', 'l1'),), (('tier', 'l2'),)], lambda h: rnd.randint(0, 200))
counter('blockscope_block_cache_gets', lambda h: [(('tier', t), ('result', r)) for t in ('l1', 'l2') for r in ('hit', 'miss')], lambda h: 1000)
counter('blockscope_block_leaks', lambda h: [(('site', 'com.acme.Reader.read:17'), ('reason', 'gc'))] if hash(h) % 10 == 0 else [], lambda h: 0.01)
counter('blockscope_copy_to_heap_bytes', lambda h: [(('component', c),) for c in components], lambda h: copy_rate[h] / 6)
counter('blockscope_copy_site_bytes', lambda h: [(('site', 'com.acme.Site%02d.call:1' % s),) for s in range(20)] + [(('site', 'other'),)], lambda h: copy_rate[h] / 21)
out('# EOF\n')
