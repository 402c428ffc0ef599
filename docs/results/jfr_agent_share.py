#!/usr/bin/env python3
"""The agent's share of a JFR recording's execution samples.

Usage: jfr_agent_share.py RECORDING.jfr

Reads jdk.ExecutionSample events (`jfr print --json`, the JDK's own tool) and prints the hottest leaf
frames, then the samples whose stack holds an agent frame, grouped by the outermost one (the bridge
entry point the advice called), then the lines those samples stopped at (the leaf frame and line).
Inlined frames count as frames: run the recorded JVM with
-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints so samples between safepoints are attributed
to the code they are in.
"""
import collections
import json
import subprocess
import sys


def frame_name(frame):
    return frame["method"]["type"]["name"] + "." + frame["method"]["name"]


def main(recording):
    printed = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", recording],
                             capture_output=True, text=True, check=True).stdout
    events = json.loads(printed)["recording"]["events"]
    leaves, agent, agent_lines = collections.Counter(), collections.Counter(), collections.Counter()
    samples = 0
    for event in events:
        trace = event["values"].get("stackTrace")
        if not trace or not trace["frames"]:
            continue
        samples += 1
        names = [frame_name(f) for f in trace["frames"]]
        leaves[names[0]] += 1
        ours = [n for n in names if n.startswith("io/blockscope/agent/") or n.startswith("io.blockscope.agent.")]
        if ours:
            agent[ours[-1]] += 1
            leaf = trace["frames"][0]
            agent_lines[f"{names[0]}:{leaf.get('lineNumber')} (under {ours[-1]})"] += 1
    print(f"samples {samples}")
    print("--- hottest leaf frames: samples, % of all, frame")
    for name, n in leaves.most_common(15):
        print(f"{n} {100 * n / samples:.2f} {name}")
    print("--- samples under an agent frame, by the outermost one: samples, % of all, frame")
    for name, n in agent.most_common(10):
        print(f"{n} {100 * n / samples:.2f} {name}")
    total = sum(agent.values())
    print(f"agent total {total} {100 * total / samples:.2f}%")
    print("--- where those samples stopped: samples, % of all, leaf frame:line (outermost agent frame)")
    for name, n in agent_lines.most_common(10):
        print(f"{n} {100 * n / samples:.2f} {name}")


if __name__ == "__main__":
    main(sys.argv[1])
