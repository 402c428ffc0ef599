#!/usr/bin/env python3
"""Re-renders the docs' tables from the raw benchmark outputs in docs/results/, or checks them.

A rendered table sits between two comments, and the first names its raw files and renderer:

    <!-- rendered from results/FILE.json[, results/OTHER.json] by docs/results/render.py (KIND) -->
    ...table...
    <!-- end rendered -->

    python3 docs/results/render.py            # rewrite every rendered table in docs/*.md
    python3 docs/results/render.py --check    # exit 1, naming each table that differs from its file

--check also requires every table of docs/benchmarks.md to be either rendered or in a section that
says why it is not (a `<!-- historical: REASON -->` line between the section's heading and the
table): a figure without its raw output must say so.
"""
import argparse
import json
import pathlib
import re
import sys

BEGIN = re.compile(r"^<!-- rendered from (?P<files>.+?) by docs/results/render\.py \((?P<kind>[\w-]+)\) -->$")
END = "<!-- end rendered -->"
HISTORICAL = re.compile(r"^<!-- historical: .+ -->$")


def fmt(value, digits=0):
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}"


def provenance(raw, name):
    """The date, JDK and machine line every rendered table starts with."""
    if "environment" in raw:  # PE JSON
        env = raw["environment"]
        return (f"Raw: `{name}`, {raw['finishedAt'][:16].replace('T', ' ')} UTC, JDK {env['javaVersion']}, "
                f"{env.get('cpu', env['os'])}, {env['availableProcessors']} cores shared with other builds "
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


def overhead_table(raws):
    lines = []
    for name, raw in raws:
        lines.append(provenance(raw, name))
        lines.append("")
    lines += ["| workload | pairs | CPU per op, on/off: median [95% CI] | extra CPU per op, % [95% CI]"
              " | ops/s on/off: median [95% CI] | interval's upper bound below +1%? |",
              "|---|---:|---|---|---|---|"]
    for _, raw in raws:
        workload = re.search(r"--workload (\S+)", raw["command"]).group(1)
        if "--rpc-rows" in raw["command"]:
            workload += " (RPC server)"
        extra = raw["extraCpuPerOpPercent"]
        shown = f"yes ({extra['high']:+.2f}%)" if extra["high"] < 1.0 else f"no ({extra['high']:+.2f}%)"
        lines.append(f"| {workload} | {raw['pairs']} | {interval(raw['cpuPerOpRatio'])} | {interval(extra, 2)}"
                     f" | {interval(raw['throughputRatio'])} | {shown} |")
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


RENDERERS = {"pe-table": pe_table, "overhead": overhead_table, "jmh": jmh_table}


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
            raws.append((f, json.loads(path.read_text())))
        out.append("")
        out += RENDERERS[kind](raws)
        out.append("")
        out.append(END)
        i = end + 1
    return "\n".join(out)


def unexplained_tables(text):
    """Tables of benchmarks.md that are neither rendered nor in a section marked historical."""
    found = []
    rendered = historical = in_table = in_code = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        if line.startswith("#"):
            historical = False
        if HISTORICAL.match(line):
            historical = True
        if BEGIN.match(line):
            rendered = True
        if line == END:
            rendered = False
        is_row = line.startswith("|")
        if is_row and not in_table and not rendered and not historical:
            found.append(n)
        in_table = is_row
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a table differs")
    parser.add_argument("--docs", default=str(pathlib.Path(__file__).resolve().parent.parent),
                        help="the docs folder (default: the one this script is in)")
    args = parser.parse_args()
    docs = pathlib.Path(args.docs)
    problems = []
    for doc in sorted(docs.glob("*.md")):
        text = doc.read_text()
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
        if doc.name == "benchmarks.md" and args.check:
            for n in unexplained_tables(text):
                problems.append(f"benchmarks.md:{n}: a table with neither its raw file (a rendered block) nor a"
                                f" '<!-- historical: REASON -->' line in its section")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
