#!/usr/bin/env python3
"""Wraps a JMH JSON result with its date, JDK, machine line (load average), command and a label, for
render.py's jmh tables: wrap-jmh.py JMH_JSON[,JMH_JSON...] OUT LABEL COMMAND (several JSON files: the
results of repeated runs, e.g. rounds interleaved with another build, kept together)"""
import json, sys, os, datetime, platform
inp, out, label, command = sys.argv[1:5]
res = [r for f in inp.split(",") for r in json.load(open(f))]
cpu = next((l.split(':',1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.machine())
load = os.getloadavg()
json.dump({"tool": "jmh", "label": label,
           "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
           "jdk": res[0]["jdkVersion"] + " (" + res[0]["vmName"] + ")",
           "machine": f"{cpu}, {os.cpu_count()} cores, shared with other builds (load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end)",
           "command": command, "results": res}, open(out, 'w'), indent=1)
