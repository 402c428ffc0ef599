#!/usr/bin/env python3
"""Re-renders the docs' tables from the raw benchmark outputs in docs/results/, or checks them.

A rendered table sits between two comments, and the first names its raw files and renderer:

    <!-- rendered from results/FILE.json[, results/OTHER.json] by docs/results/render.py (KIND) -->
    ...table...
    <!-- end rendered -->

    python3 docs/results/render.py            # rewrite every rendered table in docs/*.md
    python3 docs/results/render.py --check    # exit 1, naming each table that differs from its file

A raw file is read as JSON, or as gzip-compressed JSON when its name ends in .gz (FILE.json.gz): big
raw files are committed compressed (`gzip -9n FILE.json`) and cited under that name.

--check also requires
- every table of docs/benchmarks*.md to be either rendered or in a section that says why it is not
  (a `<!-- no raw file: REASON -->` line between the section's heading and the table): a figure
  without its raw output must say so;
- every file in docs/results/ but the scripts (*.py) to be named by a page of docs/: raw files
  that no figure comes from do not stay;
- docs/ to hold under 3,000,000 bytes (the project's limit for its user pages): compress the big
  raw files rather than let the folder grow.
"""
import argparse
import gzip
import json
import pathlib
import random
import re
import sys

BEGIN = re.compile(r"^<!-- rendered from (?P<files>.+?) by docs/results/render\.py \((?P<kind>[\w-]+)\) -->$")
END = "<!-- end rendered -->"
NO_RAW_FILE = re.compile(r"^<!-- no raw file: .+ -->$")
DOCS_LIMIT_BYTES = 3_000_000


def read_raw(path):
    """A raw file's JSON; FILE.json.gz is read through gzip, so a compressed file renders as its .json did."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def fmt(value, digits=0):
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}"


def provenance(raw, name):
    """The date, JDK and machine line every rendered table starts with."""
    if "environment" in raw:  # PE JSON
        env = raw["environment"]
        return (f"Raw: `{name}`, {raw['finishedAt'][:16].replace('T', ' ')} UTC, JDK {env['javaVersion']}, "
                f"{env.get('cpu', env['os'])}, {env['availableProcessors']} cores "
                f"(load average {env.get('loadAverageAtEnd', 0):.1f} at the end).")
    return (f"Raw: `{name}`, {raw['date'][:16].replace('T', ' ')} UTC, JDK {raw['jdk']}, {raw['machine']}. "
            f"Command: `{raw['command']}`.")


def pe_table(raws):
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| workload | configuration | threads | ops/s | p50 us | p99 us | GC pauses | GC ms/s | GC source"
              " | alloc B/row | gain |",
              "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for _, raw in raws:
        for r in raw["records"]:
            config = r["deploy"] if r["readPath"] == "n/a" else f"{r['readPath']}/{r['deploy']}"
            gps = r.get("gcPauseSecondsPerSecond")
            lines.append(
                f"| {r['workload']} | {config} | {r['threads']} | {fmt(r['opsPerSec'])} | {fmt(r['p50Micros'], 1)}"
                f" | {fmt(r['p99Micros'], 1)} | {r['gcPauseCount']} | {fmt(None if gps is None else gps * 1000, 3)}"
                f" | {r.get('gcSource', 'mxbean')} | {fmt(r['allocBytesPerRow'])}"
                f" | {'base' if r['baseline'] == config else fmt(r['gainVsBaseline'], 2) + 'x'} |")
    return lines


def interval(i, digits=4):
    return f"{i['median']:.{digits}f} [{i['low']:.{digits}f}, {i['high']:.{digits}f}]"


# The agent jars the raw files' commands name (-javaagent:.../agent-NAME.jar, or -NAME-N-DATE.json
# in the file name where the command is an RPC client's): what each one was.
BUILDS = {"cap": "agent build",
          "outline": "agent build",
          "floor": "agent build with a diagnostic switch, left off",
          "diag": "diagnostics jar"}


def overhead_label(raw, name=""):
    """The workload and how it was measured, from the raw file's command. An RPC client's command
    does not name the server's agent jar or options; there the raw file's name does
    (agent-switch-...[-leakN][-rateN]-...-BUILD-N-DATE.json[.gz])."""
    workload = re.search(r"--workload (\S+)", raw["command"]).group(1)
    # a RegionServer measured by run-regionserver.sh cost: its options, like the RPC server's, are in
    # the raw file's name
    remote = "--agent-pid" in raw["command"] or "run-regionserver.sh" in raw["command"]
    if "run-regionserver.sh" in raw["command"]:
        workload += f" (HBase {raw['hbaseVersion']} RegionServer)"
    elif "--rpc-rows" in raw["command"] or "--agent-pid" in raw["command"]:
        workload += " (RPC server)"
    if "--agent-switch" in raw["command"]:
        command = raw["command"]
        if "--read-path copy" in command:
            workload += ", copy read path"
        probes = re.search(r"--switch-probes (\S+)", command)
        paused = "--switch-mode pause" in command
        leak_switch = "--switch-mode leak-tracking" in command
        workload += (f", one warm JVM: probes {probes.group(1) if probes else 'all'}"
                     + (" recording throughout, leak tracking on / off" if leak_switch
                        else " recording / paused" if paused else " installed / removed"))
        leak = re.search(r"leak\.sample=(\d+)", command)
        if not leak and remote:
            leak = re.search(r"-leak(\d+)-", name)  # the server's option, named in the file name
        if leak:
            workload += f", leak.sample={leak.group(1)}"
        rate = re.search(r"leak\.rate=(\d+)", command)
        if not rate and remote:
            rate = re.search(r"-rate(\d+)-", name)  # likewise
        if rate:
            workload += f", leak.rate={rate.group(1)}"
        variant = re.search(r"-javaagent:\S*/agent-(" + "|".join(BUILDS) + r")\.jar", command)
        if not variant and remote:
            variant = re.search(r"-(" + "|".join(BUILDS) + r")-\d+-[\d-]+\.json(\.gz)?$", name)
        if variant:
            workload += ", " + BUILDS[variant.group(1)]
    return workload


def overhead_table(raws):
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| workload | pairs | CPU per op, on/off: median [95% CI] | extra CPU per op, % [95% CI]"
              " | ops/s on/off: median [95% CI] | interval's upper bound below +1%? |",
              "|---|---:|---|---|---|---|"]
    for _, raw in raws:
        workload = overhead_label(raw)
        extra = raw["extraCpuPerOpPercent"]
        shown = f"yes ({extra['high']:+.2f}%)" if extra["high"] < 1.0 else f"no ({extra['high']:+.2f}%)"
        lines.append(f"| {workload} | {raw['pairs']} | {interval(raw['cpuPerOpRatio'])} | {interval(extra, 2)}"
                     f" | {interval(raw['throughputRatio'])} | {shown} |")
    return lines


PARTS = {"jit": "JIT compiler threads (C1, C2)", "gc": "garbage collector threads", "vm": "VM thread (safepoints)",
         "jfr": "JFR's own threads", "agent": "threads named like the agent's (endpoint, JFR stream, live page, start-up)",
         "app": "every other thread: RPC handlers, readers (the probes' advice runs here)",
         "ended": "threads that ended during the run"}


def overhead_parts_table(raws):
    """Where the server's extra CPU per operation went (AgentOverhead's RPC mode, ThreadCpu's parts):
    per part, the median over pairs of (B's part - A's part) / A's CPU per op, and their sum."""
    lines = []
    for name, raw in raws:
        lines += [provenance(raw, name), ""]
    lines += ["| thread kind | extra CPU per op, % of A's [95% CI] |", "|---|---|"]
    for _, raw in raws:
        parts = raw["extraCpuPerOpPercentByPart"]
        for part, i in parts.items():
            lines.append(f"| {PARTS.get(part, part)} | {interval(i, 2)} |")
        total = sum(i["median"] for i in parts.values())
        lines.append(f"| sum of the parts' medians (the whole: {interval(raw['extraCpuPerOpPercent'], 2)}) "
                     f"| {total:+.2f} |")
    return lines


def switch_table(raws):
    """pe --agent-switch runs (one warm JVM): the overhead figures, the reading threads' own share,
    and what the off windows measured, so the spread the interval had to see through is in view."""
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| run | pairs | extra CPU per op, % [95% CI] | reading threads only, % [95% CI]"
              " | ops/s on/off [95% CI] | off windows: CPU us/op, median (min-max) | JIT ms per window, median |"
              " upper bound below +1%? |",
              "|---|---:|---|---|---|---|---:|---|"]
    for name, raw in raws:
        label = overhead_label(raw, name)
        extra = raw["extraCpuPerOpPercent"]
        worker = raw.get("workerCpuPerOpRatio")
        worker_text = "n/a" if worker is None else interval(
            {k: (worker[k] - 1) * 100 for k in ("median", "low", "high")}, 2)
        off = [r["cpuNanosPerOp"] / 1000 for r in raw["runs"] if not r["agent"]]
        jit = [r["compilationMillis"] for r in raw["runs"] if r.get("compilationMillis", -1) >= 0]
        shown = f"yes ({extra['high']:+.2f}%)" if extra["high"] < 1.0 else f"no ({extra['high']:+.2f}%)"
        lines.append(f"| {label} | {raw['pairs']} | {interval(extra, 2)} | {worker_text}"
                     f" | {interval(raw['throughputRatio'])} | {median(off):.0f} ({min(off):.0f}-{max(off):.0f})"
                     f" | {'n/a' if not jit else f'{median(jit):.0f}'} | {shown} |")
    return lines


def cluster_bootstrap(runs, resamples=4000, seed=20261127):
    """Median of the pooled pair ratios of several runs, with a two-stage percentile bootstrap (runs
    drawn with replacement, then pairs within each): the interval sees the spread between JVMs, not
    only within one. Seeded, so a re-render gives the same figures."""
    draw = random.Random(seed).random
    # The same draws in the same order as the plain loops it replaces (the figures must not move);
    # bound locals and an in-place sort keep the re-render, and DocsResultsTest, a few seconds long.
    sized = [(run, len(run)) for run in runs]
    stats = []
    for _ in range(resamples):
        sample = []
        for _ in sized:
            run, n = sized[int(draw() * len(sized))]
            sample.extend([run[int(draw() * n)] for _ in range(n)])
        sample.sort()
        half = len(sample) // 2
        stats.append(sample[half] if len(sample) % 2 else (sample[half - 1] + sample[half]) / 2)
    stats.sort()
    pooled = [r for run in runs for r in run]
    return median(pooled), stats[int(0.025 * resamples)], stats[int(0.975 * resamples) - 1]


def pooled_switch_table(raws):
    """pe --agent-switch runs of the same build and workload pooled: each group's runs, their own
    medians, and the pooled median with a cluster bootstrap interval (see cluster_bootstrap)."""
    groups = {}
    for name, raw in raws:
        groups.setdefault(overhead_label(raw, name), []).append((name, raw))
    lines = ["| runs pooled | runs | pairs | each run's extra CPU per op, % (median) | pooled extra CPU per op, %"
             " [95% CI, runs and pairs resampled] | upper bound below +1%? |",
             "|---|---:|---:|---|---|---|"]
    for label, members in groups.items():
        runs = [raw["pairCpuRatios"] for _, raw in members]
        med, low, high = (100 * (x - 1) for x in cluster_bootstrap(runs))
        each = ", ".join(f"{raw['extraCpuPerOpPercent']['median']:+.2f}" for _, raw in members)
        shown = f"yes ({high:+.2f}%)" if high < 1.0 else f"no ({high:+.2f}%)"
        lines.append(f"| {label} | {len(runs)} | {sum(len(r) for r in runs)} | {each}"
                     f" | {med:+.2f} [{low:+.2f}, {high:+.2f}] | {shown} |")
    return lines


def jmh_table(raws):
    """JMH runs (JSON wrapped with date, JDK, machine, command and a label) side by side: one column
    of average ns/op (median of the iterations, with the mean's 99.9% error, or the range of the
    means when a file holds several runs of a benchmark) and bytes/op per file."""
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    header = "| benchmark | config | threads |"
    rule = "|---|---|---:|"
    for _, raw in raws:
        header += f" {raw['label']}: ns/op, median [mean ± error] | {raw['label']}: B/op |"
        rule += "---|---:|"
    lines += [header, rule]
    rows = {}
    for i, (_, raw) in enumerate(raws):
        for r in raw["results"]:
            key = (r["benchmark"].rsplit(".", 1)[1], r.get("params", {}).get("config", ""), r["threads"])
            rows.setdefault(key, [[] for _ in raws])[i].append(r)
    for (bench, config, threads), results in rows.items():
        line = f"| {bench} | {config} | {threads} |"
        for rs in results:
            if not rs:
                line += " | |"
                continue
            # repeated runs (rounds) of one benchmark: the median of all their iterations, and the
            # range of the runs' means instead of one run's error
            samples = sorted(x for r in rs for fork in r["primaryMetric"]["rawData"] for x in fork)
            n = len(samples)
            median = samples[n // 2] if n % 2 else (samples[n // 2 - 1] + samples[n // 2]) / 2
            allocs = [r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score") for r in rs]
            alloc = None if None in allocs else sum(allocs) / len(allocs)
            if len(rs) == 1:
                m = rs[0]["primaryMetric"]
                spread = f"{m['score']:,.1f} ± {m['scoreError']:,.1f}"
            else:
                scores = [r["primaryMetric"]["score"] for r in rs]
                spread = f"{len(rs)} runs' means {min(scores):,.1f}..{max(scores):,.1f}"
            line += f" {median:,.1f} [{spread}] | {fmt(alloc, 1)} |"
        lines.append(line)
    return lines


def startup_table(raws):
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| arm | rounds | median wall | median CPU | wall added: median of per-round differences"
              " [min, max] | CPU added: median [min, max] |",
              "|---|---:|---:|---:|---|---|"]

    def added(values, median):
        return f"{median / 1000:+.2f} s [{min(values) / 1000:+.2f}, {max(values) / 1000:+.2f}]"

    for _, raw in raws:
        # a COMPARE_AGENT_JAR arm (another agent jar, named after its file) is not the product's figure
        for arm in (a for a in raw["arms"] if not a["arm"].endswith(".jar")):
            wall = cpu = ""
            if "wallAddedMs" in arm:
                wall = added(arm["wallAddedMs"], arm["wallAddedMedianMs"])
                cpu = added(arm["cpuAddedMs"], arm["cpuAddedMedianMs"])
            lines.append(f"| {arm['arm']} | {raw['rounds']} | {arm['wallMedianMs'] / 1000:.2f} s"
                         f" | {arm['cpuMedianMs'] / 1000:.2f} s | {wall} | {cpu} |")
    return lines


def deploys_table(raws):
    """pe --loadings: one row per deploy and loading, the loading's figures over its measured time."""
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        s = raw["settings"]
        lines.append(f"Cache {s['cacheBytes'] >> 20} MB per deploy (combined deploys: L1 {s['l1Bytes'] >> 20} MB for"
                     f" meta blocks), randomRead by {s['threads']} threads, {s['measuredSecondsPerLoading']:.0f} s"
                     f" measured per loading after {s['warmupSecondsPerLoading']:.0f} s of warm-up.")
        lines.append("")
    lines += ["| deploy | loading | ops/s | p50 us | p95 us | p99 us | p99.9 us | GC pauses | GC ms/s"
              " | alloc MB/s | CPU cores | data hit | evicted/s | file reads/s | load avg |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for _, raw in raws:
        for d in raw["deploys"]:
            for l in d["loadings"]:
                f = l["totals"]
                alloc = None if f["allocBytesPerSec"] is None else f["allocBytesPerSec"] / 1e6
                lines.append(
                    f"| {d['deploy']} | {l['name']} ({l['factor']:g}x) | {fmt(f['opsPerSec'])} | {fmt(f['p50Micros'], 1)}"
                    f" | {fmt(f['p95Micros'], 1)} | {fmt(f['p99Micros'], 1)} | {fmt(f['p999Micros'], 1)}"
                    f" | {f['gcPauseCount']} | {fmt(f['gcPauseSecondsPerSecond'] * 1000, 2)} | {fmt(alloc, 1)}"
                    f" | {fmt(f['cpuCores'], 2)} | {fmt(f['dataHitRatio'], 3)} | {fmt(f['evictedBlocksPerSec'], 1)}"
                    f" | {fmt(f['fileReadsPerSec'])} | {fmt(l['loadAverageAtEnd'], 1)} |")
    return lines


def median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def longrun_table(raws):
    """A long pe --loadings run: per file and deploy, the first and last quarter of its ticks side by side.

    The live columns are the medians of the readings after a full collection (pe --live-every) in that
    quarter: n/a where the run made none."""
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| run | deploy | minutes | quarter | ops/s | GC ms/s | GC pauses/s | heap after GC MB | RSS MB"
              " | direct MB | live heap MB | live direct MB |",
              "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    mb = lambda v: None if v is None else v / 1048576
    for name, raw in raws:
        agent = any("-javaagent" in a for a in raw["environment"]["jvmArguments"])
        for d in raw["deploys"]:
            samples = [s for l in d["loadings"] for s in l["samples"]]
            q = max(1, len(samples) // 4)
            for label, part in (("first", samples[:q]), ("last", samples[-q:])):
                lines.append(
                    f"| {'agent' if agent else 'no agent'} | {d['deploy']} | {samples[-1]['t'] / 60:.0f} | {label}"
                    f" | {fmt(median(s['opsPerSec'] for s in part))}"
                    f" | {fmt(median(s['gcPauseSecondsPerSecond'] * 1000 for s in part), 2)}"
                    f" | {fmt(median(s['gcPauseCount'] / s['seconds'] for s in part), 2)}"
                    f" | {fmt(median(mb(s['heapAfterGcBytes']) for s in part), 1)}"
                    f" | {fmt(median(mb(s['rssBytes']) for s in part), 1)}"
                    f" | {fmt(median(mb(s['directBytes']) for s in part), 1)}"
                    f" | {fmt(median(mb(s.get('liveHeapBytes')) for s in part), 1)}"
                    f" | {fmt(median(mb(s.get('liveDirectBytes')) for s in part), 1)} |")
    return lines


def _totals(raw, deploy):
    """The per-loading totals of one deploy, in loading order."""
    return [l["totals"] for d in raw["deploys"] if d["deploy"] == deploy for l in d["loadings"]]


def _churn(raw):
    """Indexes of the loadings whose data outgrows the cache (factor above 1)."""
    return [i for i, l in enumerate(raw["deploys"][0]["loadings"]) if l["factor"] > 1]


def _ratios(raw, a, b, key, loadings):
    ta, tb = _totals(raw, a), _totals(raw, b)
    return [ta[i][key] / tb[i][key] if tb[i][key] else None for i in loadings]


def _r(values):
    return ", ".join("n/a" if v is None else f"{v:.2f}" for v in values)


def _spread(raw, deploy):
    """(max - min) / mean of the deploy's throughput across the churn loadings."""
    ops = [_totals(raw, deploy)[i]["opsPerSec"] for i in _churn(raw)]
    return (max(ops) - min(ops)) / (sum(ops) / len(ops))


def _in_cache(raw):
    ops = {d["deploy"]: d["loadings"][0]["totals"]["opsPerSec"] for d in raw["deploys"]}
    best = max(ops, key=ops.get)
    ratio = ops["lru"] / ops["cbc-offheap"]
    return "lru / cbc-offheap ops/s; most ops/s", f"{ratio:.2f}x; {best}", best == "lru" and ratio >= 1.2


def _in_cache_gc(raw):
    lru, off = (_totals(raw, d)[0]["gcPauseSecondsPerSecond"] * 1000 for d in ("lru", "cbc-offheap"))
    return "GC ms/s lru, cbc-offheap", f"{lru:.2f}, {off:.2f}", lru < off


def _churn_gc(raw):
    r = _ratios(raw, "cbc-offheap", "lru", "gcPauseSecondsPerSecond", _churn(raw))
    return "cbc-offheap / lru GC time, per churn loading", _r(r), all(v is not None and v < 1 for v in r)


def _variance(raw):
    off, lru = _spread(raw, "cbc-offheap"), _spread(raw, "lru")
    return "ops/s spread over the churn loadings, (max-min)/mean, cbc-offheap, lru", f"{off:.2f}, {lru:.2f}", off < lru


def _file_gc(raw):
    r = _ratios(raw, "cbc-file", "cbc-offheap", "gcPauseSecondsPerSecond", _churn(raw))
    return "cbc-file / cbc-offheap GC time, per churn loading", _r(r), all(v is not None and v < 1 for v in r)


def _file_ops(raw):
    r = _ratios(raw, "cbc-file", "cbc-offheap", "opsPerSec", _churn(raw))
    return "cbc-file / cbc-offheap ops/s, per churn loading", _r(r), all(v is not None and v < 1 for v in r)


def _first_three(raw):
    return list(range(min(3, len(raw["deploys"][0]["loadings"]))))


def _mean_latency(raw):
    r = _ratios(raw, "cbc-offheap", "lru", "meanMicros", _first_three(raw))
    return "cbc-offheap / lru mean latency, first three loadings", _r(r), sum(v > 1 for v in r if v) * 2 > len(r)


def _tail_latency(raw):
    r95 = _ratios(raw, "cbc-offheap", "lru", "p95Micros", _first_three(raw))
    r99 = _ratios(raw, "cbc-offheap", "lru", "p99Micros", _first_three(raw))
    better = sum(v < 1 for v in r95 + r99 if v) * 2 > len(r95 + r99)
    return "cbc-offheap / lru p95; p99, first three loadings", f"{_r(r95)}; {_r(r99)}", better


def _cpu(raw):
    per_op = {}
    for d in ("cbc-offheap", "lru"):
        t = _totals(raw, d)
        per_op[d] = sum(x["cpuCores"] * x["seconds"] for x in t) / sum(x["ops"] for x in t) * 1e6
    ratio = per_op["cbc-offheap"] / per_op["lru"]
    return ("CPU per operation over all loadings, cbc-offheap, lru (ratio)",
            f"{per_op['cbc-offheap']:.1f} us, {per_op['lru']:.1f} us ({ratio:.2f}x)", ratio > 1)


def _onheap(raw):
    ops = _ratios(raw, "cbc-onheap", "cbc-offheap", "opsPerSec", _churn(raw))
    gc = _ratios(raw, "cbc-onheap", "cbc-offheap", "gcPauseSecondsPerSecond", _churn(raw))
    return ("cbc-onheap / cbc-offheap ops/s; GC time, per churn loading", f"{_r(ops)}; {_r(gc)}",
            all(v is not None and v < 1 for v in ops) and all(v is not None and v > 1 for v in gc))


SEED_CONCLUSIONS = [
    ("data set in cache: LruBlockCache has the most throughput, at least 20% more than CBC offheap", _in_cache),
    ("data set in cache: LruBlockCache has half the GC of CBC offheap", _in_cache_gc),
    ("cache churning: CBC offheap needs a third to a half of LruBlockCache's GC", _churn_gc),
    ("CBC offheap varies less than LruBlockCache as the misses climb", _variance),
    ("CBC file has a better GC profile than CBC offheap", _file_gc),
    ("... but less throughput than CBC offheap", _file_ops),
    ("CBC offheap latency is slightly higher on average than LruBlockCache", _mean_latency),
    ("... but its 95th and 99th percentiles are slightly better", _tail_latency),
    ("CBC offheap uses a bit more CPU than LruBlockCache", _cpu),
    ("bucket cache on heap: less throughput and more GC than offheap (its long runs)", _onheap),
]


def verdict_table(raws):
    """Each conclusion of HBase's 2014 "Comparing BlockCache Deploys" against every run of ours: the figures, and whether the winner is the same."""
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    runs = "" if len(raws) == 1 else " (" + " / ".join(f"run {i + 1}" for i in range(len(raws))) + ")"
    lines += ["| # | conclusion of the 2014 comparison | our figures" + runs + " | same winner? |", "|---:|---|---|---|"]
    for n, (claim, check) in enumerate(SEED_CONCLUSIONS, 1):
        results = [check(raw) for _, raw in raws]
        same = [ok for _, _, ok in results]
        verdict = "yes" if all(same) else ("no" if not any(same) else f"in {sum(same)} of {len(same)} runs")
        lines.append(f"| {n} | {claim} | {results[0][0]}: {' / '.join(v for _, v, _ in results)} | {verdict} |")
    return lines


def fleet_table(raws):
    """fleet-bench-thanos.sh: every Fleet overview query's p50/p95 per arm, one column pair per fleet size."""
    lines = []
    for name, raw in raws:
        lines.append(f"Raw: `{name}`, {raw['date'][:16].replace('T', ' ')} UTC, {raw['machine']}. "
                     f"Command: `{raw['command']}`: {fmt(raw['instances'])} instances, {fmt(raw['series'])} series,"
                     f" {raw['minutes']} min of 15 s samples, {raw['repeats']} runs of each dashboard query per arm (5 of the rows without rules).")
        lines.append("")
    arms = {"one-prometheus": "one Prometheus", "thanos": "Thanos Query"}
    head = "| query | kind | series |"
    rule = "|---|---|---:|"
    for _, raw in raws:
        engine = " (Thanos engine)" if "promql-engine=thanos" in raw["command"] else ""
        for arm in raw["arms"]:
            head += f" {arms.get(arm, arm)}{engine if arm == 'thanos' else ''}, {fmt(raw['instances'])}: p50 / p95 ms |"
            rule += "---:|"
    lines += [head + " same answer |", rule + "---|"]
    queries = [q["query"] for q in raws[-1][1]["queries"]]
    for query in queries:
        found = [next((q for q in raw["queries"] if q["query"] == query), None) for _, raw in raws]
        last = found[-1]
        row = f"| {query} | {last['kind']} | {' / '.join(fmt(q['series']) for q in found if q)} |"
        for q, (_, raw) in zip(found, raws):
            for arm in raw["arms"]:
                row += " n/a |" if q is None else f" {fmt(q['ms'][arm]['p50'], 1)} / {fmt(q['ms'][arm]['p95'], 1)} |"
        row += f" {' / '.join(q['same'] for q in found if q)} |"
        lines.append(row)
    return lines


RENDERERS = {"fleet": fleet_table, "pe-table": pe_table, "overhead": overhead_table,
             "overhead-parts": overhead_parts_table, "deploys": deploys_table, "longrun": longrun_table,
             "deploys-verdict": verdict_table, "startup": startup_table,
             "jmh": jmh_table, "switch": switch_table, "switch-pooled": pooled_switch_table}


def render_doc(text, docs):
    """The document with every rendered table re-rendered; raises ValueError on a malformed block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        try:
            end = lines.index(END, i)
        except ValueError:
            raise ValueError(f"'{m.group(0)}' has no '{END}'")
        kind = m.group("kind")
        if kind not in RENDERERS:
            raise ValueError(f"unknown renderer '{kind}'; known: {', '.join(RENDERERS)}")
        raws = []
        for f in (s.strip() for s in m.group("files").split(",")):
            path = docs / f
            if not path.is_file():
                raise ValueError(f"{f}: no such raw file under {docs}")
            raws.append((f, read_raw(path)))
        out.append("")
        out += RENDERERS[kind](raws)
        out.append("")
        out.append(END)
        i = end + 1
    return "\n".join(out)


def unexplained_tables(text):
    """Tables of a benchmarks*.md page that are neither rendered nor in a section that says it has no raw file."""
    found = []
    rendered = no_raw_file = in_table = in_code = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        if line.startswith("#"):
            no_raw_file = False
        if NO_RAW_FILE.match(line):
            no_raw_file = True
        if BEGIN.match(line):
            rendered = True
        if line == END:
            rendered = False
        is_row = line.startswith("|")
        if is_row and not in_table and not rendered and not no_raw_file:
            found.append(n)
        in_table = is_row
    return found


def uncited_results(docs, texts):
    """Files of docs/results/ (other than its scripts) that no page of docs/ names: by their whole name,
    so a citation of FILE.json.gz does not count for a FILE.json left beside it."""
    cited = "\n".join(texts)
    return sorted(f.name for f in (docs / "results").iterdir()
                  if f.is_file() and f.suffix != ".py"
                  and not re.search(r"results/" + re.escape(f.name) + r"(?![\w-]|\.\w)", cited))


def docs_bytes(docs):
    """The bytes of every file under docs/ (Python's bytecode caches aside)."""
    return sum(f.stat().st_size for f in docs.rglob("*") if f.is_file() and "__pycache__" not in f.parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a table differs")
    parser.add_argument("--docs", default=str(pathlib.Path(__file__).resolve().parent.parent),
                        help="the docs folder (default: the one this script is in)")
    args = parser.parse_args()
    docs = pathlib.Path(args.docs)
    problems = []
    texts = []
    for doc in sorted(docs.glob("*.md")):
        text = doc.read_text()
        texts.append(text)
        try:
            rendered = render_doc(text, docs)
        except ValueError as e:
            problems.append(f"{doc.name}: {e}")
            continue
        if rendered != text:
            if args.check:
                problems.append(f"{doc.name}: a rendered table differs from its raw file; run "
                                f"python3 docs/results/render.py to re-render it, or fix the raw file")
            else:
                doc.write_text(rendered)
                print(f"re-rendered {doc.name}")
        if doc.name.startswith("benchmarks") and args.check:
            for n in unexplained_tables(text):
                problems.append(f"{doc.name}:{n}: a table with neither its raw file (a rendered block) nor a"
                                f" '<!-- no raw file: REASON -->' line in its section")
    if args.check:
        for name in uncited_results(docs, texts):
            problems.append(f"results/{name}: no page of docs/ cites it; delete it or cite the figure it holds")
        size = docs_bytes(docs)
        if size >= DOCS_LIMIT_BYTES:
            problems.append(f"docs/ holds {size:,} bytes; it must stay under {DOCS_LIMIT_BYTES:,}: commit big raw"
                            f" files gzip-compressed (gzip -9n results/FILE.json, cited as results/FILE.json.gz)")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
