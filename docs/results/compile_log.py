#!/usr/bin/env python3
"""Reads a HotSpot compilation log (-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation
-XX:LogFile=FILE) and prints, for the C2 compilations (tasks without a tier level):
  inlining PATTERN  each inlining decision whose callee matches PATTERN: count | compiled method |
                    callee | success or fail | HotSpot's reason
  sizes PATTERN     the machine-code size (nmsize, bytes) of each successful C2 compilation of a
                    method matching PATTERN (OSR compilations left out)
Usage: compile_log.py FILE inlining|sizes PATTERN"""
import collections
import html
import re
import sys


def tasks(path):
    """Yields (method, is_c2, lines) per compilation task."""
    task, lines = None, []
    for line in open(path, errors="replace"):
        m = re.match(r"<task compile_id='\d+'.*? method='([^']+)'(.*)", line)
        if m:
            task = (html.unescape(m.group(1)), "level='" not in m.group(2) and "osr_bci" not in m.group(2))
            lines = [line]
            continue
        if task:
            lines.append(line)
            if line.startswith("</task"):
                yield task[0], task[1], lines
                task = None


def inlining(path, pattern):
    found = collections.Counter()
    for method, c2, lines in tasks(path):
        if not c2:
            continue
        klass, meth, last = {}, {}, None
        for line in lines:
            m = re.match(r"<klass id='(\d+)' name='([^']+)'", line)
            if m:
                klass[m.group(1)] = m.group(2).replace("/", ".")
                continue
            m = re.match(r"<method id='(\d+)' holder='(\d+)' name='([^']+)'", line)
            if m:
                meth[m.group(1)] = klass.get(m.group(2), "?") + "." + html.unescape(m.group(3))
                continue
            m = re.match(r"<call method='(\d+)'", line)
            if m:
                last = meth.get(m.group(1), "?")
                continue
            m = re.match(r"<inline_(fail|success) reason='([^']+)'", line)
            if m and last and re.search(pattern, last):
                found[(method.split(" (")[0], last, m.group(1), html.unescape(m.group(2)))] += 1
    for key, n in sorted(found.items()):
        print(n, *key, sep=" | ")


def sizes(path, pattern):
    found = collections.defaultdict(list)
    for method, c2, lines in tasks(path):
        if c2 and re.search(pattern, method):
            done = [l for l in lines if l.startswith("<task_done")]
            m = re.search(r"nmsize='(\d+)'", done[0]) if done else None
            if m and "success='1'" in done[0]:
                found[method.split(" (")[0]].append(int(m.group(1)))
    for method, values in sorted(found.items()):
        print(method, *values)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[2] not in ("inlining", "sizes"):
        sys.exit(__doc__)
    (inlining if sys.argv[2] == "inlining" else sizes)(sys.argv[1], sys.argv[3])
