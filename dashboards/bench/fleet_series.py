#!/usr/bin/env python3
"""Writes OpenMetrics text for a synthetic fleet, for `promtool tsdb create-blocks-from openmetrics`.

Every instance exports the series the Fleet overview reads (recording-rule outputs, outstanding
references, getBlock counters, read-path mode, build info, up, copies by table) plus the raw copy counters the copy
rules are computed from, so a query over the rules can be compared with the same query over raw series.
The per-job rules (the cluster trends' sums job_component:..., job_tier_result:..., job_tier:...; the
stats' counts, maximum and median; the tables' top 10 per job) are computed here from the per-instance
series written here, as each cluster's Prometheus would record them, labelled with CLUSTER: one
Prometheus holding two clusters' blocks keeps them apart by that label.

usage: fleet_series.py INSTANCES MINUTES END_EPOCH_SECONDS [FIRST=0] [CLUSTER=a] > fleet.om
FIRST numbers the first host, so two runs can write two clusters' disjoint halves of one fleet.
"""
import collections
import random
import sys

from fleet_stats import quantile

instances, minutes, end = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
cluster = sys.argv[5] if len(sys.argv) > 5 else 'a'
step = 15
times = list(range(end - minutes * 60, end + 1, step))
rnd = random.Random(7 + first)
hosts = ['host%04d:9404' % i for i in range(first, first + instances)]
out = sys.stdout.write


# per-job sums: {(rule name, labels): {t: value}}
sums = collections.defaultdict(lambda: collections.defaultdict(float))
# per-instance values the per-job statistics read: {name: {t: {host: value}}}
kept = collections.defaultdict(lambda: collections.defaultdict(dict))


def gauge(name, labels_of, value_of, job_rule=None, keep=False, noise=True):
    """keep: remember each instance's value (summed over its series) for the per-job statistics."""
    out('# TYPE %s gauge\n' % name)
    for h in hosts:
        for labels in labels_of(h):
            base = value_of(h)
            lbl = ','.join(['job="blockscope"', 'instance="%s"' % h] + ['%s="%s"' % kv for kv in labels])
            acc = sums[(job_rule, labels)] if job_rule else None
            for t in times:
                v = '%.6g' % (base * (0.9 + 0.2 * rnd.random()) if noise else base)
                out('%s{%s} %s %d\n' % (name, lbl, v, t))
                if acc is not None:
                    acc[t] += float(v)
                if keep:
                    kept[name][t][h] = kept[name][t].get(h, 0.0) + float(v)


def counter(family, labels_of, rate_of, job_rule=None):
    """job_rule: also sum rate(...[1m]) per job, as the increase over the 60 s before each sample."""
    out('# TYPE %s counter\n' % family)
    for h in hosts:
        for labels in labels_of(h):
            rate, v = rate_of(h), 0.0
            lbl = ','.join(['job="blockscope"', 'instance="%s"' % h] + ['%s="%s"' % kv for kv in labels])
            acc = sums[(job_rule, labels)] if job_rule else None
            seen = []
            for t in times:
                v += rate * step * (0.5 + rnd.random())
                out('%s_total{%s} %.0f %d\n' % (family, lbl, v, t))
                seen.append(round(v))
                if acc is not None and len(seen) > 60 // step:
                    acc[t] += (seen[-1] - seen[-1 - 60 // step]) / 60.0


one = lambda h: [()]
components = ['row', 'family', 'qualifier', 'value', 'tags', 'block']
copy_rate = {h: rnd.choice([0, 0, 0, 1e5, 5e6, 5e7]) for h in hosts}
gauge('up', one, lambda h: 1, keep=True, noise=False)
gauge('blockscope_exporter_build_info', lambda h: [(('version', '0.1.0'), ('jdk', '17'))], lambda h: 1, noise=False)
gauge('blockscope_read_path_mode', lambda h: [(('mode', 'zero-copy'),)], lambda h: 1, noise=False)
gauge('instance:blockscope_copy_to_heap_bytes:rate1m', one, lambda h: copy_rate[h], keep=True)
gauge('instance_component:blockscope_copy_to_heap_bytes:rate1m', lambda h: [(('component', c),) for c in components], lambda h: copy_rate[h] / 6,
      'job_component:blockscope_copy_to_heap_bytes:rate1m')
# hbase2 profile: each server copies for 5 of the cluster's 200 tables (panel "Tables that copy most")
tables_of = {h: rnd.sample(['ns%d:t%03d' % (i % 4, i) for i in range(200)], 5) for h in hosts}
gauge('instance_table:blockscope_copy_to_heap_bytes:rate1m', lambda h: [(('table', t),) for t in tables_of[h]], lambda h: copy_rate[h] / 5,
      'job_table:blockscope_copy_to_heap_bytes:rate1m')
gauge('instance:blockscope_gc_pause_seconds:p99_rate5m', one, lambda h: rnd.choice([0.005, 0.02, 0.05, 0.3]), keep=True)
gauge('instance:blockscope_gc_pause_time:ratio_rate5m', one, lambda h: rnd.choice([0.001, 0.01, 0.08]), keep=True)
gauge('blockscope_block_refs_outstanding', lambda h: [(('tier', 'l1'),), (('tier', 'l2'),)], lambda h: rnd.randint(0, 200),
      'job_tier:blockscope_block_refs_outstanding:sum', keep=True)
counter('blockscope_block_cache_gets', lambda h: [(('tier', t), ('result', r)) for t in ('l1', 'l2') for r in ('hit', 'miss')], lambda h: 1000,
        'job_tier_result:blockscope_block_cache_gets:rate1m')
counter('blockscope_block_leaks', lambda h: [(('site', 'com.acme.Reader.read:17'), ('reason', 'gc'))] if int(h[4:-5]) % 10 == 0 else [], lambda h: 0.01)
counter('blockscope_copy_to_heap_bytes', lambda h: [(('component', c),) for c in components], lambda h: copy_rate[h] / 6)
counter('blockscope_copy_site_bytes', lambda h: [(('site', 'com.acme.Site%02d.call:1' % s),) for s in range(20)] + [(('site', 'other'),)], lambda h: copy_rate[h] / 21)
for rule in sorted({r for r, _ in sums}):
    out('# TYPE %s gauge\n' % rule)
    for (r, labels), points in sorted(sums.items()):
        if r == rule:
            lbl = ','.join(['cluster="%s"' % cluster, 'job="blockscope"'] + ['%s="%s"' % kv for kv in labels])
            for t in sorted(points):
                out('%s{%s} %.9g %d\n' % (rule, lbl, points[t], t))


def job_stat(rule, source, stat):
    """A per-job statistic over the instances' values: one series per cluster and job."""
    out('# TYPE %s gauge\n' % rule)
    lbl = 'cluster="%s",job="blockscope"' % cluster
    for t in times:
        xs = list(kept[source][t].values())
        if xs:
            out('%s{%s} %.17g %d\n' % (rule, lbl, stat(xs), t))


def job_top10(rule, source):
    """topk by (job) (10, source): each cluster's and job's top 10 instances, with their own labels."""
    out('# TYPE %s gauge\n' % rule)
    series = collections.defaultdict(list)
    for t in times:
        top = sorted(kept[source][t].items(), key=lambda hv: hv[1], reverse=True)[:10]
        for h, v in top:
            series[h].append((t, v))
    for h, points in sorted(series.items()):
        lbl = 'cluster="%s",job="blockscope",instance="%s"' % (cluster, h)
        for t, v in points:
            out('%s{%s} %.17g %d\n' % (rule, lbl, v, t))


# The rules of the stats and top-10 tables (dashboards/mixin/rules.libsonnet), as each cluster records them.
job_stat('job:blockscope_instances_up:count', 'up', lambda xs: sum(1 for x in xs if x == 1))
job_stat('job:blockscope_instances_down:count', 'up', lambda xs: sum(1 for x in xs if x == 0))
job_stat('job:blockscope_gc_pause_seconds:max_p99_rate5m', 'instance:blockscope_gc_pause_seconds:p99_rate5m', max)
job_stat('job:blockscope_gc_pause_seconds:median_p99_rate5m', 'instance:blockscope_gc_pause_seconds:p99_rate5m',
         lambda xs: quantile(0.5, xs))
job_top10('instance:blockscope_copy_to_heap_bytes:top10_rate1m', 'instance:blockscope_copy_to_heap_bytes:rate1m')
job_top10('instance:blockscope_gc_pause_seconds:top10_p99_rate5m', 'instance:blockscope_gc_pause_seconds:p99_rate5m')
job_top10('instance:blockscope_gc_pause_time:top10_ratio_rate5m', 'instance:blockscope_gc_pause_time:ratio_rate5m')
job_top10('instance:blockscope_block_refs_outstanding:top10_sum', 'blockscope_block_refs_outstanding')
out('# EOF\n')
