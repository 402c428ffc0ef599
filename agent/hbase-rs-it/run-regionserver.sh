#!/usr/bin/env bash
# A standalone HBase 2.6 RegionServer (master, RegionServer and ZooKeeper in one JVM, offheap
# BucketCache, info servers off, free ports, data in a temp dir) with the blockscope agent, the same
# setup the agent/hbase-rs-it tests use. Prints the pid, the ZooKeeper quorum and the metrics URL.
#
#   bash agent/hbase-rs-it/run-regionserver.sh [serve] [agent options]   # runs until Ctrl-C
#   bash agent/hbase-rs-it/run-regionserver.sh startup N [agent options] # start-up cost, N runs each
#   bash agent/hbase-rs-it/run-regionserver.sh cost --agent-switch PAIRS [--switch-probes all|NAMES] \
#        [--switch-mode pause|install] [--duration 2s] [--json FILE]   # the agent's CPU per operation
#   bash agent/hbase-rs-it/run-regionserver.sh whole --pairs N [--threads 2] [--rows 20000] [--warmup 40s] \
#        [--duration 30s] [--agent-options OPTS] [--baseline-agent OLD.jar] --json FILE   # whole agent, fresh JVMs
#
# `startup` runs the arms (no agent, the built agent, and COMPARE_AGENT_JAR if set: e.g. a jar of an
# earlier build) in rotating order each round, and prints each run's wall and CPU time to "Master has
# completed initialization" and the medians. RS_JVM_OPTS adds JVM options to every server (e.g.
# -XX:StartFlightRecording=filename=/tmp/rs.jfr,settings=profile to see where a start spends its time);
# THREADS=true prints each run's CPU by thread name at readiness (JIT, GC, the host's, the agent's);
# KEEP_LOGS=DIR keeps each server's log there (ARM-PID.log); JSON=FILE writes the raw runs and medians
# (docs/results/, rendered into docs/benchmarks.md by docs/results/render.py).
#
# `cost` starts one RegionServer with the diagnostics agent jar (built beside the agent jar), runs a
# mixed load (puts, gets, multi-gets, scans, a regex value filter; flushes and compactions) and
# alternates windows with the probes recording and paused through the agent's ProbeSwitch MBean:
# the RegionServer's extra CPU per operation, as `pe --agent-switch` measures the example server
# (MixedLoadCost lists the options; JSON as docs/results/render.py reads it).
#
# `whole` measures the whole agent in fresh JVMs: each pair starts one RegionServer without the agent
# (or with --baseline-agent's jar) and one with the built agent jar and its defaults, in alternating
# order, one at a time. Each writes --rows rows, flushes, major-compacts and waits for the compaction,
# then runs a read-only load (gets, multi-gets, scans, a regex value filter); after --warmup it reads
# the server's CPU per operation, by thread kind (JIT, GC, VM, JFR, agent, the rest, ended) from
# /proc, over --duration, and checks that HBase's flush and compaction counters did not move. Prints
# the B/A ratios with 95% bootstrap intervals over pairs (WholeAgentCost lists the options; the JSON
# renders with docs/results/render.py's overhead and overhead-parts tables).
#
# Builds the agent jar and this module's classes first (reactor build, no install). JAVA picks the JDK
# (default: java on PATH; HBase 2.6 runs on 11 and 17, not on 25).
set -euo pipefail
cd "$(dirname "$0")/../.."
subdir="${BUILD_SUBDIR:-target}"
module=agent/hbase-rs-it
cp_file="$module/$subdir/regionserver.classpath"
if [ "${SKIP_BUILD:-}" != 1 ]; then
  mvn -B -ntp -q -Dbuild.subdir="$subdir" -pl "$module" -am package -DskipTests \
    -Dmdep.outputFile="$PWD/$cp_file" >&2
fi
java="${JAVA:-java}"
exec "$java" \
  -Dblockscope.agent.jar="$PWD/agent/$subdir/blockscope-agent.jar" \
  -Dblockscope.rs.classpath="$(cat "$cp_file")" \
  -Dblockscope.rs.classes="$PWD/$module/$subdir/classes" \
  -Dblockscope.startup.compare="${COMPARE_AGENT_JAR:-}" \
  -Dblockscope.rs.jvmOptions="${RS_JVM_OPTS:-}" \
  -Dblockscope.startup.threads="${THREADS:-false}" \
  -Dblockscope.startup.logs="${KEEP_LOGS:-}" \
  -Dblockscope.startup.json="${JSON:-}" \
  -Dblockscope.startup.command="bash agent/hbase-rs-it/run-regionserver.sh$(printf ' %q' "$@")" \
  -cp "$PWD/$module/$subdir/classes:$PWD/test-support/$subdir/classes:$(cat "$cp_file")" \
  io.blockscope.hbasers.RegionServerMain "${@:-serve}"
